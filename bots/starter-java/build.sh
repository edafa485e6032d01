#!/bin/sh
# Builds bot.jar from src/ (the bot, the bot kit in src/nimmt/kit/ and the protocol's generated
# code in src/nimmt/v1/) against Debian's gRPC, protobuf and netty jars in /usr/share/java
# (libgrpc-java, libprotobuf-java, libnetty-java, ...); bot.jar names them in its Class-Path.
set -eu
MAIN=StarterBot   # the bot's main class
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
printf 'Main-Class: %s\nClass-Path:%s\n' "$MAIN" "$(echo $classpath | sed 's/ /\n  /g' | sed '1s/^/ /')" > classes/MANIFEST.MF
jar --create --file bot.jar --manifest classes/MANIFEST.MF -C classes .
rm -rf classes
# The class-data archive the bot starts from (nimmt-bot.toml: -XX:SharedArchiveFile=bot.jsa):
# the classes of one scripted match, played in process over loopback, with the bot's JVM flags.
rm -f bot.jsa
if ! java -XX:ArchiveClassesAtExit=bot.jsa -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
        -cp bot.jar nimmt.kit.Warmup "$MAIN" >warmup.log 2>&1; then
    cat warmup.log >&2
    echo "build.sh: the warm-up match failed (above); the bot would fail the same way" >&2
    exit 1
fi
rm -f warmup.log
