#ifndef PIPER_CPOSTGRES_SHIM_H
#define PIPER_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
