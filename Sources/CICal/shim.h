#ifndef VAULTMAIL_CICAL_SHIM_H
#define VAULTMAIL_CICAL_SHIM_H

/* libical (Debian libical-dev): reads the event of a calendar invitation (text/calendar,
 * RFC 5545) for its card in the conversation. Imported by VaultMailWeb only. */
#include <libical/ical.h>

#endif
