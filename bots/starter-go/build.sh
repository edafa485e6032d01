#!/bin/sh
# Build the bot into ./bot, offline; `sh build.sh test` runs the tests instead.
#
# The arena runs this in its sandbox before the bot plays (nimmt-bot.toml: build), with no
# network: Go finds gRPC and protobuf where Debian installs them (golang-google-grpc-dev and
# friends, in /usr/share/gocode), in GOPATH mode. A vendor/ folder of your own (`go mod vendor`
# on a machine with network) comes first, for packages Debian does not have.
set -eu
here=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# GOPATH mode finds this module's own packages (nimmt-arena/bot/...) under $GOPATH/src.
mkdir -p "$work/src/nimmt-arena"
ln -s "$here" "$work/src/nimmt-arena/bot"
export GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOFLAGS=
cd "$work/src/nimmt-arena/bot"
if [ "${1:-}" = test ]; then
    go vet . ./nimmt
    go test . ./nimmt
else
    go build -trimpath -o "$here/bot" .
fi
