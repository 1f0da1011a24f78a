#include "shim.h"
#include "piper_library.h"

#define FUNCTIONS(X) X(PQconnectdb) X(PQfinish) X(PQstatus) X(PQerrorMessage) X(PQexecParams) \
    X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) X(PQntuples) X(PQcmdTuples) \
    X(PQgetvalue) X(PQgetisnull) X(PQclear) X(PQfnumber)

PIPER_LIBRARY_DEFINE(pq, "libpq", "libpq.so.5", "PIPER_LIBRARY_POSTGRES", "libpq5");
#define CALL(name) PIPER_LIBRARY_CALL(pq, name)

const char *piper_postgres_load(void) { return piper_library_load(&pq); }

PIPER_STUB PGconn *PQconnectdb(const char *info) { return CALL(PQconnectdb)(info); }
PIPER_STUB void PQfinish(PGconn *c) { CALL(PQfinish)(c); }
PIPER_STUB ConnStatusType PQstatus(const PGconn *c) { return CALL(PQstatus)(c); }
PIPER_STUB char *PQerrorMessage(const PGconn *c) { return CALL(PQerrorMessage)(c); }
PIPER_STUB PGresult *PQexecParams(PGconn *c, const char *command, int count, const Oid *types, const char *const *values,
                                  const int *lengths, const int *formats, int resultFormat) {
    return CALL(PQexecParams)(c, command, count, types, values, lengths, formats, resultFormat);
}
PIPER_STUB ExecStatusType PQresultStatus(const PGresult *r) { return CALL(PQresultStatus)(r); }
PIPER_STUB char *PQresultErrorMessage(const PGresult *r) { return CALL(PQresultErrorMessage)(r); }
PIPER_STUB char *PQresultErrorField(const PGresult *r, int field) { return CALL(PQresultErrorField)(r, field); }
PIPER_STUB int PQntuples(const PGresult *r) { return CALL(PQntuples)(r); }
PIPER_STUB char *PQcmdTuples(PGresult *r) { return CALL(PQcmdTuples)(r); }
PIPER_STUB char *PQgetvalue(const PGresult *r, int row, int field) { return CALL(PQgetvalue)(r, row, field); }
PIPER_STUB int PQgetisnull(const PGresult *r, int row, int field) { return CALL(PQgetisnull)(r, row, field); }
PIPER_STUB void PQclear(PGresult *r) { CALL(PQclear)(r); }
PIPER_STUB int PQfnumber(const PGresult *r, const char *name) { return CALL(PQfnumber)(r, name); }
