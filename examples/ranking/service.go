package ranking

import (
	"context"
	"errors"
	"log/slog"
	"time"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"google.golang.org/grpc"
)

// ServiceName is the full name of the ranking service.
var ServiceName = rankingv1.RankingService_ServiceDesc.ServiceName

// Options configures the service and the size of its model. The zero value
// is a 50,000-title catalogue with 32-dimensional embeddings, at most
// 10,000 candidates and 1,000 results per request.
type Options struct {
	// CatalogueSize is the number of titles; at most 1<<24.
	CatalogueSize int
	// EmbeddingDim is the length of the title and user vectors; at most 1024.
	EmbeddingDim int
	// MaxCandidates bounds the candidates of one request; more is
	// RESOURCE_EXHAUSTED.
	MaxCandidates int
	// MaxLimit bounds a request's limit and page size.
	MaxLimit int
	// MaxUsers bounds the users whose online features are kept.
	MaxUsers int
	// Seed chooses the catalogue, the users' cold starts and the weights.
	Seed uint64
	// Logger receives the service's own log lines; nil means slog.Default.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.CatalogueSize, 50_000)
	def(&o.EmbeddingDim, 32)
	def(&o.MaxCandidates, 10_000)
	def(&o.MaxLimit, 1_000)
	def(&o.MaxUsers, 100_000)
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func (o Options) validate() error {
	switch {
	case o.CatalogueSize < 1 || o.CatalogueSize > 1<<24:
		return errors.New("ranking: CatalogueSize must be in [1, 16777216]")
	case o.EmbeddingDim < 1 || o.EmbeddingDim > 1024:
		return errors.New("ranking: EmbeddingDim must be in [1, 1024]")
	case o.MaxCandidates < 1 || o.MaxLimit < 1 || o.MaxUsers < 1:
		return errors.New("ranking: MaxCandidates, MaxLimit and MaxUsers must be positive")
	}
	return nil
}

// Service implements rpckit.ranking.v1.RankingService.
type Service struct {
	rankingv1.UnimplementedRankingServiceServer
	opts   Options
	cat    *catalogue
	users  *userStore
	ranker *ranker
	now    func() time.Time
}

// New builds the catalogue and the model; it takes tens of milliseconds
// for the default size.
func New(opts Options) (*Service, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	cat := newCatalogue(opts.CatalogueSize, opts.EmbeddingDim, opts.Seed)
	return &Service{
		opts:   opts,
		cat:    cat,
		users:  newUserStore(cat, opts.Seed, opts.MaxUsers),
		ranker: &ranker{cat: cat, model: newModel(opts.Seed)},
		now:    time.Now,
	}, nil
}

// Register registers the service on r, a *grpc.Server or rpckit's
// *server.Server (which also marks it SERVING in health).
func (s *Service) Register(r grpc.ServiceRegistrar) {
	rankingv1.RegisterRankingServiceServer(r, s)
}

// Rank implements RankingService.Rank.
func (s *Service) Rank(ctx context.Context, req *rankingv1.RankRequest) (*rankingv1.RankResponse, error) {
	if err := s.checkRank(req, ""); err != nil {
		return nil, err
	}
	ranked, n, err := s.rank(ctx, req)
	if err != nil {
		return nil, err
	}
	return &rankingv1.RankResponse{
		Items: s.items(ranked, 0), CandidatesScored: uint32(n), ModelVersion: ModelVersion,
	}, nil
}

// rank runs a validated request and returns the ranking and how many
// candidates were scored.
func (s *Service) rank(ctx context.Context, req *rankingv1.RankRequest) ([]scored, int, error) {
	var q query
	q.setContext(req.GetContext(), s.now())
	s.users.get(req.GetContext().GetUserId()).snapshot(&q.user)
	candidates := req.GetCandidateIds()
	if len(candidates) == 0 {
		key := hashString(req.GetContext().GetUserId()) ^ uint64(q.day)*0x9e3779b97f4a7c15
		candidates = s.cat.draw(key, int(req.GetCandidateCount()), make([]uint32, 0, req.GetCandidateCount()))
	}
	ranked, err := s.ranker.rank(ctx, &q, candidates, limitOf(req.GetLimit()))
	if err != nil {
		return nil, 0, contextStatus(err)
	}
	return ranked, len(candidates), nil
}

const defaultLimit = 10

func limitOf(limit uint32) int {
	if limit == 0 {
		return defaultLimit
	}
	return int(limit)
}

// items renders ranked titles, positions counting from first+1.
func (s *Service) items(ranked []scored, first int) []*rankingv1.RankedItem {
	out := make([]*rankingv1.RankedItem, len(ranked))
	for i, r := range ranked {
		out[i] = &rankingv1.RankedItem{
			ItemId: r.id, Score: r.score, Position: uint32(first + i + 1),
			Genre: genres[s.cat.items[r.id].genre],
		}
	}
	return out
}

// RankStream implements RankingService.RankStream.
func (s *Service) RankStream(req *rankingv1.RankStreamRequest, stream grpc.ServerStreamingServer[rankingv1.RankPage]) error {
	if err := s.validateRankStream(req); err != nil {
		return err
	}
	ranked, _, err := s.rank(stream.Context(), req.GetRequest())
	if err != nil {
		return err
	}
	size := limitOf(req.GetPageSize())
	for page, first := 0, 0; first < len(ranked) || page == 0; page, first = page+1, first+size {
		end := min(first+size, len(ranked))
		msg := &rankingv1.RankPage{Items: s.items(ranked[first:end], first), Page: uint32(page), Last: end == len(ranked)}
		if err := stream.Send(msg); err != nil {
			return err
		}
	}
	return nil
}
