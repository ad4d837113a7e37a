"""A grpcio (C-core) server of rpckit.test.v1.Test for rpckit's interop tests.

Message classes are built at run time from a FileDescriptorSet; there is no
generated Python code. Serves on 127.0.0.1 (a free port, printed first on
stdout), with server reflection and health; exits when stdin closes.

    python3 server.py TEST.protoset
"""
import sys
import threading
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

SERVICE = "rpckit.test.v1.Test"


def load(path):
    fds = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as f:
        fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    msg = lambda name: message_factory.GetMessageClass(pool.FindMessageTypeByName("rpckit.test.v1." + name))
    return pool, msg


def fail(context, req):
    if req.fail_code:
        context.abort(grpc.StatusCode(_codes[req.fail_code]), req.fail_message)


_codes = {c.value[0]: c.value for c in grpc.StatusCode}


def handlers(msg):
    EchoRequest, EchoResponse = msg("EchoRequest"), msg("EchoResponse")
    CountRequest, SumResponse = msg("CountRequest"), msg("SumResponse")

    def reply(req):
        resp = EchoResponse(number=req.number)
        if req.HasField("item"):
            resp.item.CopyFrom(req.item)
        return resp

    def echo(req, context):
        fail(context, req)
        return reply(req)

    def count(req, context):
        for i in range(req.count):
            yield EchoResponse(number=i + 1)

    def sum_(reqs, context):
        total = n = 0
        for r in reqs:
            total += r.number
            n += 1
        return SumResponse(total=total, messages=n)

    def chat(reqs, context):
        for r in reqs:
            fail(context, r)
            yield reply(r)

    def h(kind, fn, req):
        return kind(fn, request_deserializer=req.FromString, response_serializer=lambda m: m.SerializeToString())

    return grpc.method_handlers_generic_handler(SERVICE, {
        "Echo": h(grpc.unary_unary_rpc_method_handler, echo, EchoRequest),
        "Count": h(grpc.unary_stream_rpc_method_handler, count, CountRequest),
        "Sum": h(grpc.stream_unary_rpc_method_handler, sum_, EchoRequest),
        "Chat": h(grpc.stream_stream_rpc_method_handler, chat, EchoRequest),
    })


def main():
    pool, msg = load(sys.argv[1])
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handlers(msg),))
    hs = health.HealthServicer()
    hs.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(hs, server)
    names = (SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server, pool=pool)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.stop(0)), daemon=True).start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
