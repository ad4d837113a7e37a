package invoke

import (
	"fmt"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// CodeName is the canonical name of a gRPC status code, as in
// google.rpc.Code and the gRPC spec: "NOT_FOUND", "DEADLINE_EXCEEDED".
func CodeName(c codes.Code) string {
	if name, ok := code.Code_name[int32(c)]; ok {
		return name
	}
	return c.String()
}

// StatusJSON renders a call's status as a JSON google.rpc.Status through
// codec, with its details decoded when the codec's resolver knows them.
func StatusJSON(codec JSONCodec, st *status.Status) ([]byte, error) {
	wire, err := proto.Marshal(st.Proto())
	if err != nil {
		return nil, fmt.Errorf("invoke: status: %w", err)
	}
	return codec.Decode(nil, st.Proto().ProtoReflect().Descriptor(), wire)
}

// DetailsJSON renders each detail of a status as a JSON Any. A detail whose
// type the codec cannot resolve is shown by its type URL alone.
func DetailsJSON(codec JSONCodec, st *status.Status) [][]byte {
	var out [][]byte
	for _, d := range st.Proto().GetDetails() {
		wire, err := proto.Marshal(d)
		if err == nil {
			js, err := codec.Decode(nil, d.ProtoReflect().Descriptor(), wire)
			if err == nil {
				out = append(out, js)
				continue
			}
		}
		out = append(out, fmt.Appendf(nil, `{"@type":%q}`, d.GetTypeUrl()))
	}
	return out
}
