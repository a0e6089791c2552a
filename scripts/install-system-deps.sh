#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Quire needs. Idempotent: installs only what is missing.
#   --runtime  LibreOffice (DOCX/PPTX -> PDF), python3-uno for the warm converter
#   --test     also Chromium (browser tests)
# Without apt (another OS) it prints what to install and exits 0, so `npm start` still works
# with whatever is already present.
set -euo pipefail

want_test=0
for arg in "$@"; do
  case "$arg" in
    --runtime) ;;
    --test) want_test=1 ;;
    *) echo "usage: $0 [--runtime] [--test]" >&2; exit 2 ;;
  esac
done

# Metric-compatible twins of Arial/Times/Courier (Liberation), Calibri (Carlito) and Cambria (Caladea):
# documents made in Word keep their line and page breaks when LibreOffice converts them. jemalloc: soffice
# runs with it (LIBREOFFICE_MALLOC), 10-14% less CPU per conversion. gcc: npm run build compiles Quire's
# dladdr cache for soffice (native/dladdr-cache.c, LIBREOFFICE_DLADDR_CACHE), 14-23% less CPU per conversion.
packages=(libreoffice-writer-nogui libreoffice-impress-nogui python3-uno libjemalloc2 gcc libc6-dev fonts-dejavu-core fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea)
if [ "$want_test" = 1 ]; then
  # poppler-utils and qpdf read Quire's PDFs back independently (pdftotext -bbox, pdfsig, qpdf --check).
  packages+=(chromium poppler-utils qpdf)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Quire: please install these packages with your system's package manager: ${missing[*]}" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "Quire: run as root (or install sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "Quire: installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Quire: system packages ready."
