#ifndef VAULTMAIL_CGPGME_SHIM_H
#define VAULTMAIL_CGPGME_SHIM_H

/* GPGME (GnuPG Made Easy, Debian libgpgme-dev) for VaultMailOpenPGP, the one target that talks
 * to GnuPG. Swift cannot call the library's macros or reach into its bit fields, so the few it
 * needs are wrapped here. Ownership of every pointer is stated next to its function. */

#include <stdlib.h>
#include <gpgme.h>

/* The error code of a GPGME error (its source stripped). */
static inline unsigned int cgpgme_code(gpgme_error_t error) {
    return (unsigned int)gpgme_err_code(error);
}

/* The error codes VaultMailOpenPGP tells apart. */
static const unsigned int cgpgme_no_error = GPG_ERR_NO_ERROR;
static const unsigned int cgpgme_no_secret_key = GPG_ERR_NO_SECKEY;
static const unsigned int cgpgme_no_public_key = GPG_ERR_NO_PUBKEY;
static const unsigned int cgpgme_bad_signature = GPG_ERR_BAD_SIGNATURE;
static const unsigned int cgpgme_no_data = GPG_ERR_NO_DATA;
static const unsigned int cgpgme_eof = GPG_ERR_EOF;
static const unsigned int cgpgme_canceled = GPG_ERR_CANCELED;
static const unsigned int cgpgme_bad_passphrase = GPG_ERR_BAD_PASSPHRASE;
static const unsigned int cgpgme_key_expired = GPG_ERR_KEY_EXPIRED;
static const unsigned int cgpgme_sig_expired = GPG_ERR_SIG_EXPIRED;
static const unsigned int cgpgme_cert_revoked = GPG_ERR_CERT_REVOKED;

/* Whether a decryption failed on the message itself (damaged or changed data, a failed
 * integrity check), not on GnuPG, its agent or the key. */
static inline int cgpgme_is_damaged_message(unsigned int code) {
    switch (code) {
    case GPG_ERR_DECRYPT_FAILED: case GPG_ERR_BAD_DATA: case GPG_ERR_INV_PACKET: case GPG_ERR_UNKNOWN_PACKET:
    case GPG_ERR_CHECKSUM: case GPG_ERR_NO_DATA: case GPG_ERR_TRUNCATED: case GPG_ERR_INV_DATA: case GPG_ERR_BAD_MPI:
    case GPG_ERR_INV_ARMOR:
        return 1;
    default:
        return 0;
    }
}

/* An error made from a code, for a callback's return value. */
static inline gpgme_error_t cgpgme_error(unsigned int code) {
    return gpgme_error((gpgme_err_code_t)code);
}

/* Flags of key creation (macros in gpgme.h). */
static const unsigned int cgpgme_create_sign = GPGME_CREATE_SIGN;
static const unsigned int cgpgme_create_cert = GPGME_CREATE_CERT;
static const unsigned int cgpgme_create_encr = GPGME_CREATE_ENCR;
static const unsigned int cgpgme_create_noexpire = GPGME_CREATE_NOEXPIRE;
static const unsigned int cgpgme_export_minimal = GPGME_EXPORT_MODE_MINIMAL;

/* The signature's `wrong_key_usage` bit. */
static inline int cgpgme_signature_wrong_key_usage(gpgme_signature_t signature) {
    return signature->wrong_key_usage;
}

/* The key's `revoked`, `expired`, `disabled`, `invalid` bits and whether it has a secret part. */
static inline int cgpgme_key_usable(gpgme_key_t key) {
    return !key->revoked && !key->expired && !key->disabled && !key->invalid;
}

/* Whether the key has a usable encryption (sub)key (`can_encrypt`, issue 32's writing). */
static inline int cgpgme_key_can_encrypt(gpgme_key_t key) {
    return key->can_encrypt;
}

/* Whether a user id is revoked or invalid (its bit fields). */
static inline int cgpgme_user_id_usable(gpgme_user_id_t uid) {
    return !uid->revoked && !uid->invalid;
}

/* Encryption flags (enum values Swift imports as a type it cannot OR). */
static const unsigned int cgpgme_encrypt_always_trust = GPGME_ENCRYPT_ALWAYS_TRUST;
static const unsigned int cgpgme_sig_mode_detach = GPGME_SIG_MODE_DETACH;

/* Whether the decryption result says the message had no integrity protection (legacy, no MDC). */
static inline int cgpgme_decrypt_legacy_no_mdc(gpgme_decrypt_result_t result) {
    return result->legacy_cipher_nomdc;
}

/* The Autocrypt Setup Message (issue 32): the secret key exported, and a symmetric encryption
 * with the setup code. */
static const unsigned int cgpgme_export_secret = GPGME_EXPORT_MODE_SECRET;
static const unsigned int cgpgme_encrypt_symmetric = GPGME_ENCRYPT_SYMMETRIC;

#endif
