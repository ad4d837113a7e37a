// Calls rpckit.test.v1.Test through a gateway with grpc-web's own client
// (GrpcWebClientBase over XMLHttpRequest, here xhr2 under node) in its text
// and binary formats, and prints what it got as one JSON object.
//
//   node client.js http://127.0.0.1:PORT
'use strict';
global.XMLHttpRequest = require('xhr2');
const {GrpcWebClientBase, MethodDescriptor, MethodType} = require('grpc-web');

const base = process.argv[2];

// The messages are built and read by hand: a varint field, a string field.
function varint(n) {
  const out = [];
  while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n >>>= 7; }
  out.push(n);
  return out;
}
function field(num, value) {
  if (typeof value === 'number') return [(num << 3) | 0, ...varint(value)];
  const bytes = Buffer.from(value, 'utf8');
  return [(num << 3) | 2, ...varint(bytes.length), ...bytes];
}
function message(fields) {
  return Uint8Array.from(fields.flatMap(([num, v]) => field(num, v)));
}
// readVarints returns the varint fields of a message by number.
function readVarints(bytes) {
  const out = {};
  for (let i = 0; i < bytes.length;) {
    let key = 0, shift = 0, b;
    do { b = bytes[i++]; key |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
    const num = key >>> 3, type = key & 7;
    if (type === 0) {
      let v = 0; shift = 0;
      do { b = bytes[i++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      out[num] = v;
    } else if (type === 2) {
      let len = 0; shift = 0;
      do { b = bytes[i++]; len |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
      i += len;
    } else {
      throw new Error('unexpected wire type ' + type);
    }
  }
  return out;
}

function method(name, type) {
  return new MethodDescriptor('/rpckit.test.v1.Test/' + name, type, Object, Object,
    (req) => req, (bytes) => readVarints(bytes));
}
const echo = method('Echo', MethodType.UNARY);
const count = method('Count', MethodType.SERVER_STREAMING);

async function unary(client, req) {
  try {
    const resp = await client.unaryCall(base + '/rpckit.test.v1.Test/Echo', req, {}, echo);
    return {number: resp[2] || 0};
  } catch (err) {
    return {code: err.code, message: err.message};
  }
}

function stream(client, req) {
  return new Promise((resolve) => {
    const got = {numbers: [], code: null, message: ''};
    const s = client.serverStreaming(base + '/rpckit.test.v1.Test/Count', req, {}, count);
    s.on('data', (m) => got.numbers.push(m[2]));
    s.on('error', (err) => { got.code = err.code; got.message = err.message; resolve(got); });
    s.on('status', (st) => { if (st.code !== 0) { got.code = st.code; got.message = st.details; } });
    s.on('end', () => { if (got.code === null) got.code = 0; resolve(got); });
  });
}

async function main() {
  const out = {};
  for (const format of ['text', 'binary']) {
    const client = new GrpcWebClientBase({format});
    out[format] = {
      unary: await unary(client, message([[5, 42]])),
      error: await unary(client, message([[2, 5], [3, 'no such item']])),
    };
  }
  const text = new GrpcWebClientBase({format: 'text'});
  out.text.stream = await stream(text, message([[1, 3]]));
  out.text.streamError = await stream(text, message([[1, 3], [3, 2], [4, 5]]));
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => { console.error(err); process.exit(1); });
