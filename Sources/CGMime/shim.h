#ifndef VAULTMAIL_CGMIME_SHIM_H
#define VAULTMAIL_CGMIME_SHIM_H

/* GMime 3 for VaultMailMIME. Swift cannot call GLib's type-check macros, variadic functions or
 * reach into structs, so the few it needs are wrapped here as static inline functions.
 * Ownership of every pointer returned here is stated next to its function. */

#include <string.h>
#include <gmime/gmime.h>

/* ---- Type checks: each returns the object as the narrower type, or NULL when it is not. ---- */

/* (transfer none) */
static inline GMimeMultipart *cgmime_as_multipart(GMimeObject *object) {
    return (object != NULL && GMIME_IS_MULTIPART(object)) ? GMIME_MULTIPART(object) : NULL;
}

/* (transfer none) */
static inline GMimePart *cgmime_as_part(GMimeObject *object) {
    return (object != NULL && GMIME_IS_PART(object)) ? GMIME_PART(object) : NULL;
}

/* (transfer none) */
static inline GMimeMessagePart *cgmime_as_message_part(GMimeObject *object) {
    return (object != NULL && GMIME_IS_MESSAGE_PART(object)) ? GMIME_MESSAGE_PART(object) : NULL;
}

/* (transfer none) A message is a GMimeObject: the upcast Swift cannot spell. */
static inline GMimeObject *cgmime_message_as_object(GMimeMessage *message) {
    return GMIME_OBJECT(message);
}

/* (transfer none) */
static inline InternetAddressMailbox *cgmime_as_mailbox(InternetAddress *address) {
    return (address != NULL && INTERNET_ADDRESS_IS_MAILBOX(address)) ? INTERNET_ADDRESS_MAILBOX(address) : NULL;
}

/* (transfer none) */
static inline InternetAddressGroup *cgmime_as_group(InternetAddress *address) {
    return (address != NULL && INTERNET_ADDRESS_IS_GROUP(address)) ? INTERNET_ADDRESS_GROUP(address) : NULL;
}

/* ---- Parsing ---- */

/* Parser options for mail as it is, not as it should be: loose RFC 2047 / parameter / address
 * parsing, addresses without a domain accepted, and undeclared 8-bit header text read as UTF-8,
 * else windows-1252, else ISO-8859-1 (which accepts any byte).
 * (transfer full) Free with g_mime_parser_options_free, and only after every object parsed
 * with it is gone: GMime's headers keep a plain pointer to the options they were parsed with. */
static inline GMimeParserOptions *cgmime_parser_options_new(GMimeParserWarningFunc warning, void *user_data) {
    static const char *fallback[] = { "UTF-8", "windows-1252", "iso-8859-1", NULL };
    GMimeParserOptions *options = g_mime_parser_options_new();
    g_mime_parser_options_set_rfc2047_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_parameter_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_address_compliance_mode(options, GMIME_RFC_COMPLIANCE_LOOSE);
    g_mime_parser_options_set_allow_addresses_without_domain(options, TRUE);
    g_mime_parser_options_set_fallback_charsets(options, fallback);
    if (warning != NULL) {
        g_mime_parser_options_set_warning_callback(options, warning, user_data);
    }
    return options;
}

/* Puts `charset` second in the fallback list for undeclared 8-bit header text (after UTF-8,
 * before windows-1252 and ISO-8859-1): used when the body names a charset the headers
 * probably share. GMime copies the list. */
static inline void cgmime_parser_options_prefer_charset(GMimeParserOptions *options, const char *charset) {
    const char *fallback[] = { "UTF-8", charset, "windows-1252", "iso-8859-1", NULL };
    g_mime_parser_options_set_fallback_charsets(options, fallback);
}

/* Parses `length` bytes as one message. The bytes are copied; the stream and parser made here
 * are released here. (transfer full) The message, or NULL when nothing could be read;
 * release with g_object_unref. */
static inline GMimeMessage *cgmime_parse_message(const char *bytes, size_t length, GMimeParserOptions *options) {
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(bytes, length); /* full, copies */
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);            /* full, refs stream */
    g_object_unref(stream);
    g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
    GMimeMessage *message = g_mime_parser_construct_message(parser, options); /* full or NULL */
    g_object_unref(parser);
    return message;
}

/* Parses `length` bytes as one MIME entity (headers, then content). The bytes are copied; the
 * stream and parser made here are released here. (transfer full) The entity, or NULL;
 * release with g_object_unref. */
static inline GMimeObject *cgmime_parse_part(const char *bytes, size_t length, GMimeParserOptions *options) {
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(bytes, length); /* full, copies */
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);            /* full, refs stream */
    g_object_unref(stream);
    g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
    GMimeObject *object = g_mime_parser_construct_part(parser, options);    /* full or NULL */
    g_object_unref(parser);
    return object;
}

/* The Date header as seconds since 1970; 0 (and *seconds untouched) when absent or unreadable.
 * The GDateTime belongs to the message. */
static inline int cgmime_message_date(GMimeMessage *message, gint64 *seconds) {
    GDateTime *date = g_mime_message_get_date(message); /* none */
    if (date == NULL) return 0;
    *seconds = g_date_time_to_unix(date);
    return 1;
}

/* ---- Streams ---- */

/* The bytes written so far to a memory stream made by g_mime_stream_mem_new. The buffer
 * belongs to the stream and lives as long as it does. */
static inline const guint8 *cgmime_mem_stream_bytes(GMimeStream *stream, size_t *length) {
    GByteArray *array = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(stream)); /* none */
    if (array == NULL) { *length = 0; return NULL; }
    *length = array->len;
    return array->data;
}

/* How many bytes were written to a stream made by g_mime_stream_null_new. */
static inline size_t cgmime_null_stream_written(GMimeStream *stream) {
    return GMIME_STREAM_NULL(stream)->written;
}

/* A stream that converts what is written to it from `charset` to UTF-8 and passes it on to
 * `target` (bytes that are invalid in `charset` are dropped). (transfer full) Release with
 * g_object_unref after g_mime_stream_flush; NULL when iconv does not know `charset`. */
static inline GMimeStream *cgmime_utf8_filter_stream(GMimeStream *target, const char *charset) {
    GMimeFilter *filter = g_mime_filter_charset_new(charset, "UTF-8"); /* full or NULL */
    if (filter == NULL) return NULL;
    GMimeStream *filtered = g_mime_stream_filter_new(target); /* full, refs target */
    g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), filter); /* refs filter */
    g_object_unref(filter);
    return filtered;
}

#endif
