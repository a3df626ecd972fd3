#ifndef VAULTMAIL_CETPAN_SHIM_H
#define VAULTMAIL_CETPAN_SHIM_H

// Everything VaultMailIMAP uses from libetpan and GnuTLS, plus static inline wrappers for
// what Swift cannot import: libetpan's list macros and GnuTLS's `gnutls_free` macro.

#include <libetpan/libetpan.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdlib.h>

// MARK: clist (macros in clist.h)

static inline clistiter *_Nullable vm_clist_begin(clist *_Nullable list) {
    return list == NULL ? NULL : clist_begin(list);
}

static inline clistiter *_Nullable vm_clist_next(clistiter *_Nonnull iter) {
    return clist_next(iter);
}

static inline void *_Nullable vm_clist_content(clistiter *_Nonnull iter) {
    return clist_content(iter);
}

static inline unsigned int vm_clist_count(clist *_Nullable list) {
    return list == NULL ? 0 : (unsigned int)clist_count(list);
}

// MARK: carray (inline functions or macros depending on the build)

static inline unsigned int vm_carray_count(carray *_Nonnull array) {
    return carray_count(array);
}

static inline void *_Nullable vm_carray_get(carray *_Nonnull array, unsigned int index) {
    return carray_get(array, index);
}

// MARK: GnuTLS

/// `gnutls_free` is a macro that also assigns NULL to its argument.
static inline void vm_gnutls_free(void *_Nullable pointer) {
    gnutls_free(pointer);
}

// MARK: SMTP internals
// Exported by libetpan 1.9.4 but declared only in mailsmtp_private.h / mailsmtp.c, which
// Debian does not install. We send EHLO and AUTH ourselves (EHLO with a correct address
// literal for IPv6, AUTH without Cyrus SASL plugins and its 512-byte command buffer), so we
// need: send a command line (`_private`: kept out of libetpan's logger), read a reply into
// `session->response` / `response_code`, and parse an EHLO reply into `session->esmtp`.

int mailsmtp_send_command(mailsmtp *_Nonnull session, char *_Nonnull command);
int mailsmtp_send_command_private(mailsmtp *_Nonnull session, char *_Nonnull command);
int mailsmtp_read_response(mailsmtp *_Nonnull session);
int mailesmtp_parse_ehlo(mailsmtp *_Nonnull session);

#endif
