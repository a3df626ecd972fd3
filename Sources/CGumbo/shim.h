#ifndef VAULTMAIL_CGUMBO_SHIM_H
#define VAULTMAIL_CGUMBO_SHIM_H

/* gumbo (Debian libgumbo-dev): the HTML5 parser VaultMailWeb's mail sanitizer reads mail HTML
 * with. Imported by VaultMailWeb only. */
#include <gumbo.h>

#endif
