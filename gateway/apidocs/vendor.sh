#!/bin/sh
# Vendors Swagger UI's built assets into static/swagger-ui from npm's
# swagger-ui-dist at a pinned version, checked against its sha256: the
# bundle, its stylesheet and their licenses. Run it from anywhere to move to
# another version (change VERSION and SHA256 together), then commit what it
# wrote. Nothing is fetched at run time: the files are embedded.
set -eu
VERSION=5.35.0
SHA256=1b8e891893404ea4c3558b6a87e2a3e494e7eedba41168c2ece5800a391a6ea6
here=$(cd "$(dirname "$0")" && pwd)
dest=$here/static/swagger-ui
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "swagger-ui-dist@$VERSION" >/dev/null)
tgz=$tmp/swagger-ui-dist-$VERSION.tgz
echo "$SHA256  $tgz" | sha256sum -c --quiet -
tar -xzf "$tgz" -C "$tmp"
mkdir -p "$dest"
for f in swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css LICENSE NOTICE; do
	cp "$tmp/package/$f" "$dest/$f"
done
# Source maps are not vendored: drop the comments that point at them.
sed -i -e '/^\/\/# sourceMappingURL=/d' -e 's#/\*\# sourceMappingURL=[^*]*\*/##' \
	"$dest/swagger-ui-bundle.js" "$dest/swagger-ui.css"
echo "$VERSION" > "$dest/VERSION"
