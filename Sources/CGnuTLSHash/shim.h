#ifndef VAULTMAIL_CGNUTLSHASH_SHIM_H
#define VAULTMAIL_CGNUTLSHASH_SHIM_H

// GnuTLS's streaming digest (gnutls_hash_init / gnutls_hash / gnutls_hash_deinit): SHA-256
// of a 90 MB model file in well under a second, a chunk at a time.

#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>

#endif
