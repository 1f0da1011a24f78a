#ifndef PIPER_CQRENCODE_SHIM_H
#define PIPER_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
