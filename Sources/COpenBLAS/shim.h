// OpenBLAS (Debian libopenblas-dev): the matrix products under the on-device embedding model.
// Imported by VaultMailAI only.
#include <cblas.h>

// OpenBLAS's own cblas.h declares these; the generic one (another BLAS picked by Debian's
// alternatives) does not, and the engine calls them. A repeated compatible declaration is harmless.
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
