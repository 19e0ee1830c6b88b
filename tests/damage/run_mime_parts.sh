#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fio's text in base64 parts of mails (attachments, Outlook bodies, mboxes): the
# runs of the text itself (mime_parts.py says how the mails are made).
set -u
: "${FIOSCOPE:?}" "${FSC_SOURCE_DIR:?}" "${FSC_CORPUS:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$FSC_SOURCE_DIR/tests/damage/mime_parts.py" "$FIOSCOPE" "$FSC_CORPUS" "$tmp"
