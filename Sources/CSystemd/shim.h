#ifndef VAULTMAIL_CSYSTEMD_SHIM_H
#define VAULTMAIL_CSYSTEMD_SHIM_H

#include <systemd/sd-bus.h>
#include <poll.h>
#include <sys/eventfd.h>

/* The error's name and message, or NULL. The error stays owned by the message. */
static inline const char *vm_bus_error_name(const sd_bus_error *error) { return error ? error->name : NULL; }
static inline const char *vm_bus_error_message(const sd_bus_error *error) { return error ? error->message : NULL; }

#endif
