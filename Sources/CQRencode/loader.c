#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(QRcode_encodeString) X(QRcode_free)

PIPER_LIBRARY_DEFINE(qrencode, "libqrencode", "libqrencode.so.4", "PIPER_LIBRARY_QRENCODE", "libqrencode4");
#define CALL(name) PIPER_LIBRARY_CALL(qrencode, name)

const char *piper_qrencode_load(void) { return piper_library_load(&qrencode); }

PIPER_STUB QRcode *QRcode_encodeString(const char *text, int version, QRecLevel level, QRencodeMode hint, int casesensitive) {
    return CALL(QRcode_encodeString)(text, version, level, hint, casesensitive);
}
PIPER_STUB void QRcode_free(QRcode *code) { CALL(QRcode_free)(code); }
