#ifndef VAULTMAIL_CARCHIVE_SHIM_H
#define VAULTMAIL_CARCHIVE_SHIM_H

/* libarchive (Debian libarchive-dev): writes the ZIP of a message's attachments ("Download all").
 * Imported by VaultMailWeb only. */
#include <archive.h>
#include <archive_entry.h>

/* AE_IFREG is a macro with a cast, which Swift does not import. */
static const unsigned int vm_archive_regular_file = AE_IFREG;

#endif
