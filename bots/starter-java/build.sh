#!/bin/sh
# Builds bot.jar from src/ (the bot, the bot kit in src/nimmt/kit/ and the protocol's generated
# code in src/nimmt/v1/) against Debian's gRPC, protobuf and netty jars in /usr/share/java
# (libgrpc-java, libprotobuf-java, libnetty-java, ...); bot.jar names them in its Class-Path.
set -eu
JARS="grpc-api grpc-context grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub
      protobuf guava failureaccess gson perfmark-api netty-buffer netty-codec netty-codec-http
      netty-codec-http2 netty-common netty-handler netty-resolver netty-transport"
classpath=""
for jar in $JARS; do
    if [ -f "/usr/share/java/$jar.jar" ]; then
        classpath="$classpath /usr/share/java/$jar.jar"
    elif [ "$jar" != failureaccess ]; then
        echo "build.sh: /usr/share/java/$jar.jar is missing (install Debian's libgrpc-java and friends)" >&2
        exit 1
    fi
done
rm -rf classes
mkdir classes
# javax.annotation.Generated (on the generated stub) is a compile-time annotation only
javac -encoding UTF-8 -nowarn -d classes \
    -cp "$(echo $classpath | tr ' ' ':'):/usr/share/java/geronimo-annotation-1.3-spec.jar" \
    $(find src -name '*.java')
printf 'Main-Class: StarterBot\nClass-Path:%s\n' "$(echo $classpath | sed 's/ /\n  /g' | sed '1s/^/ /')" > classes/MANIFEST.MF
jar --create --file bot.jar --manifest classes/MANIFEST.MF -C classes .
rm -rf classes
