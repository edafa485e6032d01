package nimmt

import (
	"strings"
	"testing"

	nimmtv1 "nimmt-arena/bot/nimmt/v1"
)

func u32(v uint32) *uint32 { return &v }

func TestDecisionsReadAsTheEnginesText(t *testing.T) {
	row, tile := 3, 12
	cases := map[string]Decision{
		"tile 37":                 PlayTile{37},
		"luck 2 4":                PlaceLuck{2, 4},
		"action none":             PlayAction{},
		"action stop row=3":       PlayAction{Card: "stop", Row: &row},
		"action swap new_tile=12": PlayAction{Card: "swap", NewTile: &tile},
		"take_row 1":              TakeRow{1},
	}
	for want, decision := range cases {
		if got := decision.String(); got != want {
			t.Errorf("%#v reads %q, want %q", decision, got, want)
		}
		message, err := decisionToProto(decision)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decisionFromProto(message)
		if err != nil || back.String() != want {
			t.Errorf("%q came back as %v (%v)", want, back, err)
		}
	}
}

func TestTheViewIsTheObservationInNativeTypes(t *testing.T) {
	message := &nimmtv1.Observation{
		Variant: "pro+luck", Seat: 1, Players: 3, Turn: 2, SetNumber: 1,
		Spaces:  []*nimmtv1.Row{{Tiles: []int32{5, 0, 0}}, {Tiles: []int32{9, -1, 0}}},
		Markers: []*nimmtv1.Marker{{Row: 1, Space: 2, Card: nimmtv1.LuckCard_LUCK_CARD_FINAL10}},
		Hand:    []uint32{3, 40}, Chosen: u32(7), Scores: []int32{-2, 0, 4},
		ActionCards: []nimmtv1.ActionCard{nimmtv1.ActionCard_ACTION_CARD_SWAP},
		Pending:     &nimmtv1.Pending{Kind: nimmtv1.DecisionKind_DECISION_KIND_ACTION, Seats: []uint32{1}, Tile: u32(40)},
		Legal: []*nimmtv1.Decision{
			{Decision: &nimmtv1.Decision_Action{Action: &nimmtv1.PlayAction{}}},
			{Decision: &nimmtv1.Decision_Action{Action: &nimmtv1.PlayAction{Card: nimmtv1.ActionCard_ACTION_CARD_SWAP, NewTile: u32(3)}}},
		},
	}
	view, err := viewFromProto(message)
	if err != nil {
		t.Fatal(err)
	}
	if view.Markers[1][2] != "final10" || view.Markers[0][0] != "" || view.Spaces[1][1] != -1 {
		t.Errorf("board read wrong: %v %v", view.Spaces, view.Markers)
	}
	if *view.Chosen != 7 || view.Scores[0] != -2 || view.ActionCards[0] != "swap" {
		t.Errorf("view read wrong: %+v", view)
	}
	if view.Pending.Kind != KindAction || *view.Pending.Tile != 40 {
		t.Errorf("pending read wrong: %+v", view.Pending)
	}
	if !view.IsLegal(view.Legal[1]) || view.IsLegal(PlayTile{3}) {
		t.Error("IsLegal compares decisions by their text")
	}
	bot := &KitBot{}
	if got := decide(bot, view); got.String() != "action none" {
		t.Errorf("the default action is none, got %v", got)
	}
}

func TestAMarkerOffTheBoardIsAnError(t *testing.T) {
	message := &nimmtv1.Observation{Markers: []*nimmtv1.Marker{{Row: 4, Space: 0}}}
	if _, err := viewFromProto(message); err == nil {
		t.Error("a marker off the board must not be read")
	}
}

func TestAnUnknownCardIsAnError(t *testing.T) {
	hand := &nimmtv1.Observation{ActionCards: []nimmtv1.ActionCard{99}}
	board := &nimmtv1.Observation{Spaces: []*nimmtv1.Row{{Tiles: []int32{5, 0}}}, Markers: []*nimmtv1.Marker{{Card: 99}}}
	for _, message := range []*nimmtv1.Observation{hand, board} {
		if _, err := viewFromProto(message); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("%v: got %v", message, err)
		}
	}
}

func TestTheDefaultsAreTheArenas(t *testing.T) {
	bot := &KitBot{}
	view := &View{Hand: []int{4, 9}, Spaces: [][]int{{55, 0}, {10, 20}, {1, 2}},
		Legal: []Decision{PlaceLuck{1, 3}, PlaceLuck{2, 0}}}
	if bot.ChooseTile(view) != 4 {
		t.Error("the default tile is the lowest")
	}
	if row, space := bot.PlaceLuck(view, "plus5"); row != 1 || space != 3 {
		t.Error("the default luck space is the first legal one")
	}
	if bot.TakeRow(view, 3) != 2 {
		t.Error("the default row to take has the fewest bullheads")
	}
}

func TestAPanickingHookIsABotCodeError(t *testing.T) {
	err := call("ChooseTile", func() { panic("oops") })
	if code, ok := err.(*BotCodeError); !ok || code.Value != "oops" {
		t.Errorf("got %v", err)
	}
}
