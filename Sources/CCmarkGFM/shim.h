#ifndef VAULTMAIL_CCMARKGFM_SHIM_H
#define VAULTMAIL_CCMARKGFM_SHIM_H

/* cmark-gfm (Debian libcmark-gfm-dev, libcmark-gfm-extensions-dev): GitHub-flavoured Markdown
 * for the HTML alternative of a message written in Markdown. Imported by VaultMailMarkdown only. */
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <stdlib.h>

/* The options VaultMail renders with, as one value (the C macros are not imported as Swift
 * constants when they are combined): a line break where the writer broke the line, as in the
 * plain-text part, and raw HTML left out (CMARK_OPT_UNSAFE is not set), so the HTML holds only
 * what the Markdown says. */
static inline int vm_cmark_options(void) {
    return CMARK_OPT_HARDBREAKS | CMARK_OPT_VALIDATE_UTF8;
}

#endif
