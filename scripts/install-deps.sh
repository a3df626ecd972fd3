#!/usr/bin/env bash
# Installs the Debian packages VaultMail builds and tests with, when any is missing.
# Safe to run again: it does nothing when everything is present.
set -euo pipefail

packages=(
  libsqlite3-dev   # GRDB over Debian's SQLite
  sqlite3          # the E-09 test checks the database with SQLite's own shell (an independent reader)
  libsystemd-dev   # sd-bus, for desktop notifications over D-Bus
  dbus-daemon      # the private buses the desktop tests start
  python3-dbus     # the recording notification server of the tests
  python3-gi       # its GLib main loop
  perl-base        # clears the signal mask of the test servers' processes
  dunst            # the real notification daemon of the desktop smoke test
  dbus-bin         # dbus-send, which dunstctl uses
  xvfb             # the virtual display dunst draws on
  imagemagick      # `import`: the smoke test's screenshot
  gnome-keyring    # a real Secret Service for the credential tests
  xdg-utils        # xdg-open, which the OAuth2 sign-in opens the consent page with (the tests' browser follows it via $BROWSER)
  libgmime-3.0-dev # CGMime: MIME parsing (VaultMailMIME)
  pkg-config       # SwiftPM finds GMime's and GLib's include paths through it
  libetpan-dev     # IMAP (and later SMTP) protocol layer: the CEtPan system library
  libgnutls28-dev  # certificate verification in VaultMailIMAP (libetpan itself does none)
  ca-certificates  # the system trust store GnuTLS loads (/etc/ssl/certs/ca-certificates.crt)
  dovecot-imapd    # the real IMAP server the IMAP tests start on loopback (/usr/sbin/dovecot)
  openssl          # the tests' CA and server certificates
  python3-aiosmtpd # the real SMTP server the sending tests start on loopback (scripts/test-smtp-server.py)
  isync            # mbsync, the peer of the sync benchmark
  libgumbo-dev     # CGumbo: the HTML5 parser under the web app's mail sanitizer (VaultMailWeb)
  libarchive-dev   # CArchive: the ZIP of a message's attachments, "Download all" (VaultMailWeb)
  libical-dev      # CICal: the event card of a calendar invitation (VaultMailWeb)
  libstemmer-dev   # CStemmer: Snowball's English stemmer, so a searched word finds its other forms as notmuch's does (VaultMailStore)
  libcmark-gfm-dev libcmark-gfm-extensions-dev  # CCmarkGFM: Markdown bodies sent with an HTML alternative (VaultMailMarkdown)
  libgpgme-dev     # CGPGME: OpenPGP through GnuPG (VaultMailOpenPGP, docs/crypto.md)
  gpg gpg-agent gpgconf  # the GnuPG programs GPGME runs: the accounts' keys, decryption, signatures
  sq               # Sequoia's tool: the OpenPGP tests' independent writer of encrypted and signed mail
  rnp              # RNP (Thunderbird's OpenPGP engine): the OpenPGP tests' third writer
  webext-ublock-origin-chromium  # EasyPrivacy and uBlock's privacy list: the tracker shield's lists (docs/privacy.md), read by the tests and copied into the package by scripts/stage.sh
  chromium         # the real browser the web app's tests drive
  chromium-driver  # its WebDriver
  python3-selenium # the web app's browser tests speak WebDriver through it
  python3-pip      # fetches axe-core (inside a PyPI wheel) for the accessibility check
  libopenblas-dev  # COpenBLAS: the matrix products of the on-device embedding model (VaultMailAI)
  cmake g++        # scripts/build-llama.sh builds llama.cpp's shared libraries (CLlama) from source
  qemu-user        # qemu-x86_64: the processor-portability tests run the tool on emulated older processors
  iproute2         # `ip netns`/veth: the sealed-network test's namespace (SealedNetwork, docs/privacy.md)
  tcpdump          # records every packet that leaves the sealed network
)

"$(dirname "$0")/apt-install-missing.sh" "${packages[@]}"
"$(dirname "$0")/install-axe.sh"
# Delta Chat (PyPI's deltachat-rpc-server and -client), for the interoperability test (issue 32).
exec "$(dirname "$0")/install-deltachat.sh"
