"""``manage.py run_gateway``: serve remote bots (:mod:`remote.gateway`) until stopped."""

import asyncio
import signal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from remote.gateway import Gateway, GatewayConfig
from remote.tls import self_signed


class Command(BaseCommand):
    help = "Serve remote bots over gRPC with TLS (settings NIMMT_GATEWAY_*)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--address", help="host:port to listen on (NIMMT_GATEWAY_ADDRESS)")
        parser.add_argument("--name", default="", help="this gateway's name in the records")
        parser.add_argument(
            "--self-signed",
            metavar="FOLDER",
            help="make a self-signed certificate and key in FOLDER and use them (the demo; bots "
            "then trust FOLDER/gateway.crt with --ca)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REMOTE_REDIS_URL:
            raise CommandError(
                "the gateway needs Redis to meet the workers: NIMMT_REMOTE_REDIS_URL (redis:// or "
                "unix:///path/redis.sock), or a Redis broker (NIMMT_BROKER_URL=redis://...)"
            )
        cert, key = settings.GATEWAY_TLS_CERT, settings.GATEWAY_TLS_KEY
        address = options["address"] or settings.GATEWAY_ADDRESS
        if options["self_signed"]:
            host = address.rsplit(":", 1)[0].strip("[]")
            cert, key = self_signed(Path(options["self_signed"]), [host, "localhost"])
        for path in (cert, key):
            if path is not None and not Path(path).is_file():
                raise CommandError(f"no such file: {path} (NIMMT_GATEWAY_TLS_CERT/_KEY)")
        config = GatewayConfig(
            address=address,
            redis_url=settings.REMOTE_REDIS_URL,
            cert=cert,
            key=key,
            grace_seconds=settings.REMOTE_GRACE_SECONDS,
            idle_seconds=settings.GATEWAY_IDLE_SECONDS,
            messages_per_second=settings.GATEWAY_MESSAGES_PER_SECOND,
            keepalive_seconds=settings.GATEWAY_KEEPALIVE_SECONDS,
            keepalive_timeout_seconds=settings.GATEWAY_KEEPALIVE_TIMEOUT_SECONDS,
            connects_per_minute=settings.GATEWAY_CONNECTS_PER_MINUTE,
            connections_per_address=settings.GATEWAY_CONNECTIONS_PER_ADDRESS,
            name=options["name"],
        )
        try:
            gateway = Gateway(config)
        except ValueError as error:
            raise CommandError(str(error)) from None
        asyncio.run(self._serve(gateway))

    async def _serve(self, gateway: Gateway) -> None:
        port = await gateway.start()
        self.stdout.write(f"gateway listening on {gateway.config.address} (port {port})")
        self.stdout.flush()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        await gateway.stop()
