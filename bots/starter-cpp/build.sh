#!/bin/sh
# Builds ./bot from bot.cpp, the bot kit (nimmt/) and the protocol's generated code
# (nimmt/gen/), against Debian's gRPC and protobuf (libgrpc++-dev, libprotobuf-dev).
set -eu
g++ -std=c++17 -O2 -pipe -I. -Inimmt/gen \
    bot.cpp nimmt/botkit.cc nimmt/gen/nimmt/v1/arena.pb.cc nimmt/gen/nimmt/v1/arena.grpc.pb.cc \
    -o bot $(pkg-config --cflags --libs grpc++ protobuf)
