// OpenBLAS (Debian libopenblas-dev): the matrix products under the on-device embedding model.
// Imported by VaultMailAI only.
#include <cblas.h>
