package main

import (
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// datasource is the Prometheus data source the dashboard's "datasource"
// variable selects.
var datasource = dashboard.DataSourceRef{Type: cog.ToPtr("prometheus"), Uid: cog.ToPtr("${datasource}")}

// builder builds Grafana's classic dashboard JSON model. The SDK marks it
// deprecated in favour of its v2 schema, but the classic model is the one
// every Grafana version imports and provisions from files.
//
//lint:ignore SA1019 the classic model, as said above
type builder = dashboard.DashboardBuilder

// newDashboard is a dashboard with rpckit's common settings and a
// datasource variable.
func newDashboard(uid, title, description string) *builder {
	//lint:ignore SA1019 the classic model, as said at builder
	return dashboard.NewDashboardBuilder(title).
		Uid(uid).
		Description(description).
		Tags([]string{"rpckit", "grpc"}).
		Editable().
		Tooltip(dashboard.DashboardCursorSyncCrosshair).
		Refresh("30s").
		Time("now-1h", "now").
		Timezone(common.TimeZoneBrowser).
		WithVariable(dashboard.NewDatasourceVariableBuilder("datasource").
			Label("Data source").
			Type("prometheus"))
}

// labelVariable is a multi-value variable of label's values on metric
// (label_values(metric{match}, label)), "All" by default.
func labelVariable(name, label, metric, match string) *dashboard.QueryVariableBuilder {
	series := metric
	if match != "" {
		series += "{" + match + "}"
	}
	query := fmt.Sprintf("label_values(%s, %s)", series, label)
	return dashboard.NewQueryVariableBuilder(name).
		Label(name).
		Datasource(datasource).
		Query(dashboard.StringOrMap{String: cog.ToPtr(query)}).
		Definition(query).
		Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
		Sort(dashboard.VariableSortAlphabeticalAsc).
		Multi(true).
		IncludeAll(true).
		Current(dashboard.VariableOption{
			Text:  dashboard.StringOrArrayOfString{ArrayOfString: []string{"All"}},
			Value: dashboard.StringOrArrayOfString{ArrayOfString: []string{"$__all"}},
		})
}

// query is a Prometheus query of a panel, drawn as legend.
type query struct{ expr, legend string }

// targets are a panel's Prometheus queries, with refIds A, B, ... in order.
func targets(refs []query) []cog.Builder[variants.Dataquery] {
	out := make([]cog.Builder[variants.Dataquery], len(refs))
	for i, q := range refs {
		out[i] = prometheus.NewDataqueryBuilder().
			Datasource(datasource).
			RefId(string(rune('A' + i))).
			Expr(q.expr).
			LegendFormat(q.legend).
			Range()
	}
	return out
}

// graph is a time series panel of queries, in unit.
func graph(title, description, unit string, qs ...query) *timeseries.PanelBuilder {
	p := timeseries.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(datasource).
		Unit(unit).
		Min(0).
		Height(8).
		Span(12).
		LineWidth(1).
		FillOpacity(10).
		ShowPoints(common.VisibilityModeNever).
		Legend(common.NewVizLegendOptionsBuilder().
			DisplayMode(common.LegendDisplayModeList).
			Placement(common.LegendPlacementBottom).
			ShowLegend(true)).
		Tooltip(common.NewVizTooltipOptionsBuilder().
			Mode(common.TooltipDisplayModeMulti).
			Sort(common.SortOrderDescending))
	for _, t := range targets(qs) {
		p.WithTarget(t)
	}
	return p
}

// withLimit draws a dashed red line at limit on a graph: an objective.
func withLimit(p *timeseries.PanelBuilder, limit float64) *timeseries.PanelBuilder {
	return p.
		Thresholds(dashboard.NewThresholdsConfigBuilder().
			Mode(dashboard.ThresholdsModeAbsolute).
			Steps([]dashboard.Threshold{{Color: "green"}, {Value: cog.ToPtr(limit), Color: "red"}})).
		ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().
			Mode(common.GraphThresholdsStyleModeDashed))
}

// state is a stat panel showing the last value of each series of q as the
// text of states (value -> text, color).
func state(title, description string, q query, states []stateText) *stat.PanelBuilder {
	options := map[string]dashboard.ValueMappingResult{}
	for i, s := range states {
		options[fmt.Sprint(i)] = dashboard.ValueMappingResult{
			Text: cog.ToPtr(s.text), Color: cog.ToPtr(s.color), Index: cog.ToPtr(int32(i)),
		}
	}
	p := stat.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(datasource).
		Height(8).
		Span(12).
		ColorMode(common.BigValueColorModeBackground).
		GraphMode(common.BigValueGraphModeNone).
		Mappings([]dashboard.ValueMapping{{ValueMap: &dashboard.ValueMap{
			Type: dashboard.MappingTypeValueToText, Options: options,
		}}})
	for _, t := range targets([]query{q}) {
		p.WithTarget(t)
	}
	return p
}

// stateText is how a state panel shows one value: a word and a color.
type stateText struct{ text, color string }

// matchers joins label matchers into a selector's inside.
func matchers(ms ...string) string { return strings.Join(ms, ",") }

// rate is the per-second rate of a counter over Grafana's rate interval.
func rate(series string) string { return "rate(" + series + "[$__rate_interval])" }

// quantiles are the latency quantiles a latency panel draws, and their
// names.
var quantiles = []struct{ q, name string }{{"0.5", "p50"}, {"0.9", "p90"}, {"0.99", "p99"}}

// latencyQueries are the quantiles of a histogram's buckets (a selector
// with its matchers), by the labels in by (none when empty); legend
// follows the quantile's name.
func latencyQueries(buckets, by, legend string) []query {
	group := "le"
	if by != "" {
		group = by + ", le"
	}
	var qs []query
	for _, q := range quantiles {
		qs = append(qs, query{
			expr:   fmt.Sprintf("histogram_quantile(%s, sum by (%s) (%s))", q.q, group, rate(buckets)),
			legend: q.name + legend,
		})
	}
	return qs
}
