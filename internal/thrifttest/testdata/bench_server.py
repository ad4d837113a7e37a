"""BenchService (thrift/testdata/bench.thrift) served by the Apache Thrift
Python library, for the interop tests (internal/thrifttest).

    python3 bench_server.py GEN_DIR TRANSPORT PROTOCOL

GEN_DIR holds the Python code the Apache compiler generated from
bench.thrift (thrift --gen py); TRANSPORT is framed, buffered or header;
PROTOCOL is binary or compact. It listens on a free loopback port, prints
"port N", then "event E" for each Notify, and serves until stdin closes.
"""
import sys
import threading

sys.path.insert(0, sys.argv[1])

from rpckit_bench import BenchService  # noqa: E402
from rpckit_bench.ttypes import BenchError, Large, Medium, MediumPart, SmallPart  # noqa: E402
from thrift.protocol import TBinaryProtocol, TCompactProtocol  # noqa: E402
from thrift.protocol.THeaderProtocol import THeaderProtocolFactory  # noqa: E402
from thrift.server import TServer  # noqa: E402
from thrift.transport import TSocket, TTransport  # noqa: E402


def part(s):
    return SmallPart(tiny=s.tiny, score=s.score, blob=s.blob)


class Handler:
    """The same behaviour as the Go tests' handler."""

    def Echo(self, req):
        return req

    def GetMedium(self, id, title):
        if id < 0:
            raise BenchError(code=id, message=title)
        return Medium(title=title, total=id, tags=["a", "b"], labels={"k": "v"})

    def PutMedium(self, req):
        return req

    def Trim(self, req):
        return MediumPart(
            items=[part(s) for s in req.items or []],
            head=part(req.head) if req.head else None,
            byName={k: part(v) for k, v in (req.byName or {}).items()},
        )

    def Grow(self, seed, pages):
        return Large(main=seed, head=seed.head, count=pages, note="grown", pages=[seed] * pages)

    def Notify(self, event):
        print("event", event, flush=True)

    def Fail(self, code, message):
        raise BenchError(code=code, message=message)


def factories(transport, protocol):
    if transport == "header":
        return TTransport.TTransportFactoryBase(), THeaderProtocolFactory()
    tf = TTransport.TFramedTransportFactory() if transport == "framed" else TTransport.TBufferedTransportFactory()
    pf = TCompactProtocol.TCompactProtocolFactory() if protocol == "compact" else TBinaryProtocol.TBinaryProtocolFactory()
    return tf, pf


def main():
    transport, protocol = sys.argv[2], sys.argv[3]
    sock = TSocket.TServerSocket(host="127.0.0.1", port=0)
    sock.listen()
    port = sock.handle.getsockname()[1]
    sock.listen = lambda: None  # serve() listens again otherwise
    tf, pf = factories(transport, protocol)
    server = TServer.TThreadedServer(BenchService.Processor(Handler()), sock, tf, pf, daemon=True)
    threading.Thread(target=server.serve, daemon=True).start()
    print("port", port, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
