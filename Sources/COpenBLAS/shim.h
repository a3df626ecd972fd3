// OpenBLAS (Debian libopenblas-dev): the matrix products under the on-device embedding model.
// Imported by VaultMailAI only, for the types: nothing links the library. VaultMailAI's
// BLASLibrary opens libopenblas.so.0 at run time and looks these functions up by name, so
// calling the header's functions directly would not link.
#include <cblas.h>

// The signatures BLASLibrary looks up with dlsym. `int` is OpenBLAS's blasint in Debian's
// libopenblas0 (32-bit indices); `enum CBLAS_ORDER` is in OpenBLAS's cblas.h and the generic one.
typedef void (*vaultmail_cblas_sgemm_fn)(
    const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE transA, const enum CBLAS_TRANSPOSE transB,
    const int m, const int n, const int k, const float alpha, const float *a, const int lda,
    const float *b, const int ldb, const float beta, float *c, const int ldc);
typedef void (*vaultmail_openblas_set_num_threads_fn)(int num_threads);
