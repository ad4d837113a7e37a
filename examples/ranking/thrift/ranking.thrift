// The real-time ranking service of rpckit's examples over Thrift: the
// methods of rpckit.ranking.v1.RankingService (ranking.proto) as far as
// Thrift allows, served by the same model. Thrift has no streams:
// RankStream becomes RankPage (one page per call), Feedback takes its
// events as a list (or one at a time, oneway, with Record), and Autoplay
// answers one playback event per call. Thrift has no unsigned integers:
// ids and counts are i32 and negative values are invalid.
namespace go rankingthrift
namespace py rpckit_ranking

enum Device {
  UNSPECIFIED = 0
  PHONE = 1
  TABLET = 2
  TV = 3
  DESKTOP = 4
}

enum Platform {
  UNSPECIFIED = 0
  IOS = 1
  ANDROID = 2
  WEB = 3
  SMART_TV = 4
}

enum FeedbackType {
  UNSPECIFIED = 0
  IMPRESSION = 1
  CLICK = 2
}

enum PlaybackAction {
  UNSPECIFIED = 0
  START = 1
  PROGRESS = 2
  COMPLETE = 3
  SKIP = 4
}

// Who is asking, on what, where and when.
struct RequestContext {
  // Required; at most 128 characters.
  1: string user_id
  2: Device device
  3: Platform platform
  // ISO 3166-1 alpha-2 country code, such as "FR"; optional.
  4: string country
  // When the request is made, in milliseconds since the Unix epoch; the
  // server's clock when absent.
  5: optional i64 timestamp_ms
}

struct RankRequest {
  1: RequestContext context
  // Titles to rank. Give either candidate_ids or candidate_count.
  2: list<i32> candidate_ids
  // How many titles to draw from the catalogue and rank.
  3: i32 candidate_count
  // How many ranked titles to return; 10 when zero.
  4: i32 limit
}

struct RankedItem {
  1: i32 item_id
  // The model's score in (0, 1): a click probability.
  2: double score
  // 1-based rank.
  3: i32 position
  4: string genre
}

struct RankResponse {
  1: list<RankedItem> items
  // How many candidates the model scored.
  2: i32 candidates_scored
  3: string model_version
}

struct RankPageResponse {
  1: list<RankedItem> items
  // 0-based page number.
  2: i32 page
  // Set on the last page.
  3: bool last
}

struct FeedbackEvent {
  1: string user_id
  2: i32 item_id
  3: FeedbackType type
  4: optional i64 timestamp_ms
}

struct FeedbackSummary {
  1: i32 events
  2: i32 impressions
  3: i32 clicks
  // Distinct users among the events.
  4: i32 users
}

struct PlaybackEvent {
  1: RequestContext context
  2: i32 item_id
  3: PlaybackAction action
  // Fraction of the title watched, in [0, 1].
  4: double progress
}

struct Suggestion {
  // The title the suggestion follows.
  1: i32 after_item_id
  // Unset when the event asks for no suggestion (START, PROGRESS).
  2: optional RankedItem next_item
  // Runners-up, best first.
  3: list<RankedItem> alternatives
}

// One thing wrong with a request: the field's path and what is wrong.
struct FieldViolation {
  1: string field
  2: string description
}

// The request is invalid (gRPC's INVALID_ARGUMENT).
exception InvalidRequest {
  1: string message
  2: list<FieldViolation> violations
}

// The request asks for more than the service allows (gRPC's
// RESOURCE_EXHAUSTED).
exception QuotaExceeded {
  1: string message
  2: string subject
  3: i32 limit
}

service RankingService {
  // Rank scores candidates for a user and returns the best, best first.
  RankResponse Rank(1: RankRequest request) throws (1: InvalidRequest invalid, 2: QuotaExceeded quota)

  // RankPage ranks like Rank and returns page number page of page_size
  // items (10 when zero).
  RankPageResponse RankPage(1: RankRequest request, 2: i32 page_size, 3: i32 page)
    throws (1: InvalidRequest invalid, 2: QuotaExceeded quota)

  // Feedback applies impression and click events in order, updating each
  // user's online features, and summarizes them. A bad event stops it:
  // the events before it are applied.
  FeedbackSummary Feedback(1: list<FeedbackEvent> events) throws (1: InvalidRequest invalid)

  // Record applies one feedback event, oneway: a bad event is dropped.
  oneway void Record(1: FeedbackEvent event)

  // Autoplay takes one playback event and, for COMPLETE or SKIP, suggests
  // the next title to play.
  Suggestion Autoplay(1: PlaybackEvent event) throws (1: InvalidRequest invalid)
}
