#ifndef VAULTMAIL_CSTEMMER_SHIM_H
#define VAULTMAIL_CSTEMMER_SHIM_H

/* libstemmer (Debian libstemmer-dev): Snowball's stemmers, whose English one (Porter2) is the
 * stemmer notmuch's Xapian index uses. Imported by VaultMailStore only (SearchStemmer). */
#include <libstemmer.h>

#endif
