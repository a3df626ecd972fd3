#ifndef VAULTMAIL_CSYSTEMD_SHIM_H
#define VAULTMAIL_CSYSTEMD_SHIM_H

#include <systemd/sd-bus.h>
#include <poll.h>
#include <sys/eventfd.h>

/* sd_bus_message_new_method_errorf is variadic: Swift cannot call it. Replies to `call`
 * with the D-Bus error `name` and the literal text `message`; returns a new reference
 * in *reply, as sd_bus_message_new_method_errorf does. */
static inline int vm_bus_message_new_method_error(sd_bus_message *call, sd_bus_message **reply,
                                                  const char *name, const char *message) {
    return sd_bus_message_new_method_errorf(call, reply, name, "%s", message);
}

/* The error's name and message, or NULL. The error stays owned by the message. */
static inline const char *vm_bus_error_name(const sd_bus_error *error) { return error ? error->name : NULL; }
static inline const char *vm_bus_error_message(const sd_bus_error *error) { return error ? error->message : NULL; }

#endif
