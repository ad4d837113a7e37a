package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The requests of the tour: one of each call kind.
const (
	demoService     = "rpckit.ranking.v1.RankingService"
	demoRankRequest = `{"context":{"userId":"demo-user","device":"DEVICE_TV","platform":"PLATFORM_SMART_TV","country":"FR"},"candidateCount":%d,"limit":20}`
	demoRankStream  = `{"request":{"context":{"userId":"demo-user"},"candidateCount":1000,"limit":30},"pageSize":10}`
)

var demoFeedback = []string{
	`{"userId":"demo-user","itemId":17,"type":"TYPE_IMPRESSION"}`,
	`{"userId":"demo-user","itemId":17,"type":"TYPE_CLICK"}`,
	`{"userId":"demo-user","itemId":42,"type":"TYPE_IMPRESSION"}`,
}

var demoAutoplay = []string{
	`{"context":{"userId":"demo-user"},"itemId":17,"action":"ACTION_START"}`,
	`{"context":{"userId":"demo-user"},"itemId":17,"action":"ACTION_COMPLETE","progress":1}`,
	`{"context":{"userId":"demo-user"},"itemId":42,"action":"ACTION_SKIP","progress":0.1}`,
}

// rankRequest is the tour's Rank request with n candidates.
func rankRequest(n int) string { return fmt.Sprintf(demoRankRequest, n) }

// demoCaller makes the tour's calls through rpckit's dynamic client, with
// descriptors from the service's reflection.
type demoCaller struct {
	conn  *invoke.Conn
	src   schema.Source
	codec invoke.JSONCodec
	out   io.Writer
}

func newDemoCaller(ctx context.Context, d *demoServices, out io.Writer) (*demoCaller, error) {
	if _, err := d.source.FindSymbol(ctx, demoService); err != nil {
		return nil, err
	}
	files, err := d.source.Files(ctx)
	if err != nil {
		return nil, err
	}
	codec := invoke.Transcode{Options: transcode.MarshalOptions{Resolver: schema.Types(files)}}
	return &demoCaller{conn: d.conn, src: d.source, codec: codec, out: out}, nil
}

// callAll makes one call of each kind, one over Thrift and one over
// REST, printing each.
func (c *demoCaller) callAll(ctx context.Context, httpURL, thriftAddr string) error {
	fmt.Fprintln(c.out, "One call of each kind through rpckit's dynamic client, one over Thrift and one through the gateway:")
	steps := []func(context.Context) (string, string, error){
		c.unary, c.serverStream, c.clientStream, c.bidi,
		func(ctx context.Context) (string, string, error) { return c.thriftRank(ctx, thriftAddr) },
		func(ctx context.Context) (string, string, error) { return c.rest(ctx, httpURL) },
	}
	for _, step := range steps {
		start := time.Now()
		what, summary, err := step(ctx)
		if err != nil {
			return fmt.Errorf("demo: %s: %w", what, err)
		}
		fmt.Fprintf(c.out, "  %-34s %8s  %s\n", what, time.Since(start).Round(10*time.Microsecond), summary)
	}
	fmt.Fprintln(c.out)
	return nil
}

func (c *demoCaller) method(ctx context.Context, name string) (protoreflect.MethodDescriptor, error) {
	d, err := c.src.FindSymbol(ctx, protoreflect.FullName(demoService+"."+name))
	if err != nil {
		return nil, err
	}
	md, ok := d.(protoreflect.MethodDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a method", d.FullName())
	}
	return md, nil
}

func (c *demoCaller) unary(ctx context.Context) (string, string, error) {
	what := "unary          Rank"
	md, err := c.method(ctx, "Rank")
	if err != nil {
		return what, "", err
	}
	req, err := c.codec.Encode(nil, md.Input(), []byte(rankRequest(1000)))
	if err != nil {
		return what, "", err
	}
	resp, err := c.conn.Unary(ctx, md, req)
	if err != nil {
		return what, "", err
	}
	js, err := c.codec.Decode(nil, md.Output(), resp.Message)
	return what, "1000 candidates -> " + firstItem(js), err
}

func (c *demoCaller) serverStream(ctx context.Context) (string, string, error) {
	what := "server stream  RankStream"
	msgs, err := c.stream(ctx, "RankStream", []string{demoRankStream})
	return what, fmt.Sprintf("%d pages of 10 ranked titles", len(msgs)), err
}

func (c *demoCaller) clientStream(ctx context.Context) (string, string, error) {
	what := "client stream  Feedback"
	msgs, err := c.stream(ctx, "Feedback", demoFeedback)
	if err != nil || len(msgs) != 1 {
		return what, "", errors.Join(err, fmt.Errorf("%d responses, want 1", len(msgs)))
	}
	return what, fmt.Sprintf("%d events -> %s", len(demoFeedback), msgs[0]), nil
}

func (c *demoCaller) bidi(ctx context.Context) (string, string, error) {
	what := "bidi stream    Autoplay"
	msgs, err := c.stream(ctx, "Autoplay", demoAutoplay)
	if err != nil || len(msgs) == 0 {
		return what, "", errors.Join(err, errors.New("no suggestion"))
	}
	return what, fmt.Sprintf("%d playback events -> %d suggestions, next: %s", len(demoAutoplay), len(msgs), nextItem(msgs[0])), nil
}

// stream sends reqs on a new stream of method name, half-closes and
// returns every response as JSON.
func (c *demoCaller) stream(ctx context.Context, name string, reqs []string) ([][]byte, error) {
	md, err := c.method(ctx, name)
	if err != nil {
		return nil, err
	}
	st, err := c.conn.NewStream(ctx, md)
	if err != nil {
		return nil, err
	}
	for _, r := range reqs {
		msg, err := c.codec.Encode(nil, md.Input(), []byte(r))
		if err != nil {
			return nil, err
		}
		if err := st.Send(msg); err != nil {
			return nil, err
		}
	}
	if err := st.CloseSend(); err != nil {
		return nil, err
	}
	var out [][]byte
	for {
		msg, err := st.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		js, err := c.codec.Decode(nil, md.Output(), msg)
		if err != nil {
			return out, err
		}
		out = append(out, js)
	}
}

func (c *demoCaller) rest(ctx context.Context, base string) (string, string, error) {
	what := "REST/JSON      POST /v1/rank"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/rank", strings.NewReader(rankRequest(1000)))
	if err != nil {
		return what, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return what, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return what, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return what, "", fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return what, resp.Proto + " 200 -> " + firstItem(body), nil
}

// firstItem shows the first ranked item of a RankResponse's JSON.
func firstItem(js []byte) string {
	return jsonObjectAfter(js, `"items":[`)
}

// nextItem shows the suggested title of a Suggestion's JSON.
func nextItem(js []byte) string {
	return jsonObjectAfter(js, `"next":`)
}

// jsonObjectAfter returns the first flat JSON object after key in js, or
// js itself (shortened) if there is none.
func jsonObjectAfter(js []byte, key string) string {
	s := string(js)
	if i := strings.Index(s, key); i >= 0 {
		s = s[i+len(key):]
		if j := strings.IndexByte(s, '}'); j >= 0 && strings.HasPrefix(s, "{") {
			return "top " + s[:j+1]
		}
	}
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return s
}
