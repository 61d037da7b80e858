#!/usr/bin/env bash
# Installs Debian's Chromium, which the console's browser tests drive (test/console/browser/,
# through playwright-core with executablePath /usr/bin/chromium). Playwright's own browser
# download (`npx playwright install`) is not used: it fetches a build from outside the package
# registries. Does nothing when /usr/bin/chromium is there already. Needs root (CI runs as root).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
test -x /usr/bin/chromium
echo "installed $(dpkg-query -W -f='${Package} ${Version}' chromium)"
