// Connect's own Node.js client (@connectrpc/connect-node) against rpckit
// gateway, run by gateway/internal/gwtest's TestConnectNodeClient:
//
//   node connect_client.mjs BASE_URL PROTOSET
//
// The service's schema comes from the protoset at run time (no generated
// code). For HTTP/1.1 and HTTP/2 (h2c), in the binary and JSON formats:
// a unary call, an error with details, a server stream that fails part-way;
// on HTTP/2 also a client stream and a bidi stream. Prints the results as
// one JSON object.
import { readFileSync } from "node:fs";
import { createClient, ConnectError } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const [baseUrl, protoset] = process.argv.slice(2);
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(protoset)));
const service = registry.getService("rpckit.test.v1.Test");

function failure(err) {
  const e = ConnectError.from(err);
  return { code: e.code, message: e.rawMessage, details: e.details.length };
}

async function* requests(numbers) {
  for (const number of numbers) yield { number: BigInt(number) };
}

async function run(httpVersion, useBinaryFormat) {
  const client = createClient(service, createConnectTransport({ baseUrl, httpVersion, useBinaryFormat }));
  const out = {};
  const res = await client.echo({ number: 42n });
  out.unary = { number: Number(res.number) };
  try {
    await client.echo({ failCode: 5, failMessage: "no such item" });
    out.error = { code: 0 };
  } catch (err) {
    out.error = failure(err);
  }
  out.stream = { numbers: [] };
  try {
    for await (const m of client.count({ count: 4, failAfter: 2, failCode: 5 })) {
      out.stream.numbers.push(Number(m.number));
    }
  } catch (err) {
    Object.assign(out.stream, failure(err));
  }
  if (httpVersion === "2") {
    const sum = await client.sum(requests([1, 2, 3]));
    out.sum = { total: Number(sum.total), messages: sum.messages };
    out.chat = [];
    for await (const m of client.chat(requests([4, 5]))) out.chat.push(Number(m.number));
  }
  return out;
}

const result = {};
for (const httpVersion of ["1.1", "2"]) {
  for (const binary of [true, false]) {
    result[`http${httpVersion}/${binary ? "proto" : "json"}`] = await run(httpVersion, binary);
  }
}
process.stdout.write(JSON.stringify(result));
