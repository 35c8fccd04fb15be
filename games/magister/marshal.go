package magister

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// encoding is the version of the format MarshalBinary writes, its first field "v". Unmarshal reads
// this version only; a change of the format bumps it.
const encoding = 1

// wireState is the stored form of a state: JSON with sets as card text, lists as long as the
// table, the banks as their cards in play order and the deal records as compact text. It holds
// nothing other fields determine (who is to act, the banks played and who took the last two, the
// trump choice, the end): Unmarshal derives those, so they cannot disagree.
type wireState struct {
	V       int            `json:"v"`
	N       int            `json:"n"`
	Seed    uint64         `json:"seed"`
	Packs   [][]cards.Card `json:"packs,omitempty"`
	Trumps  wireTrumps     `json:"trumps"`
	Deal    int            `json:"deal"`
	Dealer  games.Seat     `json:"dealer"`
	Leader  games.Seat     `json:"leader"`
	Hands   []cards.Set    `json:"hands"`
	Aside   cards.Set      `json:"aside"`
	Stock   cards.Set      `json:"stock"`
	Taken   []cards.Set    `json:"taken"`
	Banks   []int          `json:"banks"`
	Fours   []int          `json:"fours"`
	Bank    *wireBank      `json:"bank,omitempty"`
	Last    *wireBank      `json:"last,omitempty"`
	Records []string       `json:"records"`
	// Voids are the cards each seat has shown it does not hold this deal (public: they follow
	// from banks already collected); left out while nobody has shown any.
	Voids []cards.Set `json:"voids,omitempty"`
}

// wireTrumps is Trumps with the suits as letters ("S", "H"; "" for a variant-1 trump not chosen
// yet).
type wireTrumps struct {
	Variant int      `json:"variant"`
	Own     []string `json:"own,omitempty"`
	Shared  []string `json:"shared,omitempty"`
}

// wireBank is a bank as its leader and cards in play order: every other field of a Bank, what
// each card did included, follows from replaying them (§6.1, §14).
type wireBank struct {
	Leader games.Seat   `json:"leader"`
	Cards  []cards.Card `json:"cards"`
}

// MarshalBinary writes the state as JSON: deterministic, and the only encoding Unmarshal accepts.
func (g *state) MarshalBinary() ([]byte, error) {
	w := wireState{
		V: encoding, N: g.n, Seed: g.seed, Packs: g.packs,
		Trumps: wireTrumps{Variant: g.tr.Variant, Own: suitLetters(g.tr.Own), Shared: suitLetters(g.tr.Shared)},
		Deal:   g.deal, Dealer: g.dealer, Leader: g.leader,
		Hands: g.hands[:g.n], Aside: g.aside, Stock: g.stock, Taken: g.taken[:g.n],
		Banks: g.banks[:g.n], Fours: g.fours[:g.n],
		Bank: wireBankOf(g.bank), Last: wireBankOf(g.last),
		Records: make([]string, len(g.records)),
	}
	for i, r := range g.records {
		w.Records[i] = formatRecord(r)
	}
	if g.voids != [4]cards.Set{} {
		w.Voids = g.voids[:g.n]
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("magister: marshal: %w", err)
	}
	return b, nil
}

// unmarshal reads what MarshalBinary writes and nothing else: unknown fields, trailing data,
// lists of the wrong length, a state no game reaches (a card in two places or in none, a bank
// its hands could not have played, counts that do not add up) and any other encoding of an
// acceptable state are errors.
func unmarshal(b []byte) (*state, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var w wireState
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	if dec.InputOffset() != int64(len(b)) {
		return nil, errors.New("trailing data")
	}
	if w.V != encoding {
		return nil, fmt.Errorf("encoding version %d, want %d", w.V, encoding)
	}
	g, err := w.state()
	if err != nil {
		return nil, err
	}
	if err := g.check(); err != nil {
		return nil, err
	}
	out, err := g.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(out, b) {
		return nil, errors.New("not the canonical encoding of its state")
	}
	return g, nil
}

// state builds the state w describes, deriving what the encoding leaves out. It checks what the
// building needs (the table size, seats, list lengths, that the banks replay); check does the rest.
func (w *wireState) state() (*state, error) {
	n := w.N
	if n < 2 || n > 4 {
		return nil, fmt.Errorf("%d players", n)
	}
	g := &state{n: n, seed: w.Seed, packs: w.Packs, deal: w.Deal, dealer: w.Dealer, leader: w.Leader,
		aside: w.Aside, stock: w.Stock}
	if !g.seat(g.dealer) || !g.seat(g.leader) {
		return nil, fmt.Errorf("dealer %d, leader %d of %d seats", g.dealer, g.leader, n)
	}
	if g.deal < 0 || g.deal > Deals {
		return nil, fmt.Errorf("deal %d", g.deal)
	}
	if len(g.packs) > Deals {
		return nil, fmt.Errorf("%d packs", len(g.packs))
	}
	for i, p := range g.packs {
		if !isPack(p) {
			return nil, fmt.Errorf("pack %d is not the 36-card pack", i+1)
		}
	}
	var err error
	if g.tr, err = w.Trumps.trumps(); err != nil {
		return nil, err
	}
	if len(w.Hands) != n || len(w.Taken) != n {
		return nil, fmt.Errorf("%d hands and %d taken piles for %d players", len(w.Hands), len(w.Taken), n)
	}
	copy(g.hands[:], w.Hands)
	copy(g.taken[:], w.Taken)
	if len(w.Voids) != 0 && len(w.Voids) != n {
		return nil, fmt.Errorf("%d voids for %d players", len(w.Voids), n)
	}
	copy(g.voids[:], w.Voids)
	for _, c := range []struct {
		name string
		from []int
		to   *[4]int
	}{{"banks", w.Banks, &g.banks}, {"fours", w.Fours, &g.fours}} {
		if len(c.from) != n || negative(c.from) {
			return nil, fmt.Errorf("%s %v for %d players", c.name, c.from, n)
		}
		copy(c.to[:], c.from)
	}
	for _, k := range g.banks {
		g.played += k
	}
	if len(w.Records) > Deals {
		return nil, fmt.Errorf("%d records", len(w.Records))
	}
	g.records = make([]DealRecord, len(w.Records))
	for i, s := range w.Records {
		if g.records[i], err = parseRecord(s); err != nil {
			return nil, fmt.Errorf("record %d: %w", i+1, err)
		}
	}
	g.choosing, g.over = g.deal == 0, len(g.records) == Deals
	if w.Bank != nil {
		if g.bank, err = g.replay(w.Bank); err != nil {
			return nil, fmt.Errorf("bank: %w", err)
		}
		if len(g.bank.Plays) == n {
			return nil, errors.New("a full bank not collected")
		}
	}
	if w.Last != nil {
		if g.last, err = g.replay(w.Last); err != nil {
			return nil, fmt.Errorf("last bank: %w", err)
		}
		if len(g.last.Plays) != n {
			return nil, fmt.Errorf("last bank of %d cards", len(g.last.Plays))
		}
	}
	g.lastTwo = g.lastTwoTaken()
	switch {
	case g.choosing:
		g.turn = g.left(g.dealer)
		for _, s := range g.tr.Own {
			if s != cards.NoSuit {
				g.turn = g.left(g.turn)
			}
		}
	case !g.leading():
		g.turn = games.Seat((int(g.bank.Leader) + len(g.bank.Plays)) % n)
	case len(g.last.Plays) > 0:
		g.turn = g.last.Holder()
	default:
		g.turn = g.leader
	}
	return g, nil
}

// negative reports whether a count is below zero.
func negative(counts []int) bool {
	return slices.ContainsFunc(counts, func(k int) bool { return k < 0 })
}

// seat reports whether s is a seat at the table.
func (g *state) seat(s games.Seat) bool { return s >= 0 && int(s) < g.n }

// lastTwoTaken counts the deal's last two banks each seat has taken (contract LastTwo): the
// taker of a bank leads the next (§2.6), so the last two takers are those of the latest banks.
func (g *state) lastTwoTaken() [4]int {
	var out [4]int
	if g.choosing {
		return out
	}
	size := HandSize(g.contract(), g.n)
	switch {
	case g.played == size && len(g.last.Plays) > 0:
		out[g.last.Leader]++
		out[g.last.Holder()]++
	case g.played != size-1:
	case !g.leading():
		out[g.bank.Leader]++
	case len(g.last.Plays) > 0:
		out[g.last.Holder()]++
	}
	return out
}

// replay rebuilds a bank from its leader and cards: each card must be one its player could play
// (§7) from the hand he held, which is his hand now and the card. Nobody plays after a bank is on
// the table or has been collected until the next lead, so that is the hand he played from.
func (g *state) replay(w *wireBank) (Bank, error) {
	if !g.seat(w.Leader) || len(w.Cards) == 0 || len(w.Cards) > g.n {
		return Bank{}, fmt.Errorf("%d cards led by seat %d", len(w.Cards), w.Leader)
	}
	var b Bank
	for i, c := range w.Cards {
		p := games.Seat((int(w.Leader) + i) % g.n)
		if !PackSet().Has(c) || g.hands[p].Has(c) || b.Cards().Has(c) {
			return Bank{}, fmt.Errorf("seat %d plays %v", p, c)
		}
		hand := g.hands[p].Add(c)
		if i == 0 {
			b = Open(p, c)
			continue
		}
		if !LegalPlays(b, g.tr, p, hand).Has(c) {
			return Bank{}, fmt.Errorf("seat %d may not play %v", p, c)
		}
		b, _ = b.Play(g.tr, p, c, hand)
	}
	return b, nil
}

// check rejects a state no game reaches, so that every method works on what Unmarshal accepts
// and no card is created or lost.
func (g *state) check() error {
	var all cards.Set
	count := 0
	for _, z := range g.Zones() {
		if !all.Intersect(z).Empty() {
			return fmt.Errorf("%v in two places", all.Intersect(z))
		}
		all = all.Union(z)
		count += z.Len()
	}
	if all != PackSet() || count != 36 {
		return fmt.Errorf("cards not conserved: %d cards", count)
	}
	for p, v := range g.voids[:g.n] {
		if !v.Minus(PackSet()).Empty() || !v.Intersect(g.hands[p]).Empty() {
			return fmt.Errorf("seat %d shown not to hold %v, holding %v", p, v, g.hands[p])
		}
	}
	if g.choosing {
		if g.voids != [4]cards.Set{} {
			return errors.New("voids before the first deal")
		}
		return g.checkChoice()
	}
	if err := g.tr.Validate(g.n); err != nil {
		return err
	}
	if err := g.checkRecords(); err != nil {
		return err
	}
	return g.checkDeal()
}

// checkChoice checks a state of the trump choice (M-TRUMPCHOICE): the pack is undealt, the seats
// from the dealer's left on have chosen distinct suits in turn, and one at least is still to choose.
func (g *state) checkChoice() error {
	if g.tr.Variant != VariantOwn || len(g.tr.Own) != g.n || g.tr.Shared != nil {
		return errors.New("a trump choice outside variant 1")
	}
	if g.stock != PackSet() || g.leader != 0 || len(g.records) > 0 || !g.leading() || len(g.last.Plays) > 0 ||
		g.banks != [4]int{} || g.fours != [4]int{} {
		return errors.New("play during the trump choice")
	}
	var chosen []cards.Suit
	for i := range g.n {
		switch s := g.tr.Own[(int(g.dealer)+1+i)%g.n]; {
		case s == cards.NoSuit:
		case i == len(chosen):
			chosen = append(chosen, s)
		default:
			return errors.New("trumps not chosen in seat order")
		}
	}
	if len(chosen) == g.n {
		return errors.New("every trump chosen but no deal dealt")
	}
	return distinctSuits(chosen)
}

// checkRecords checks the finished deals: one record per deal before this one (all 24 at the
// end), each row of the table's width and adding up (§8.2, §9), every dealer the first leader of
// the deal before (M-DEALER) and, after deal 1, every first leader left of his dealer (§2.5).
func (g *state) checkRecords() error {
	if g.over && g.deal != Deals || !g.over && len(g.records) != g.deal-1 {
		return fmt.Errorf("%d records in deal %d", len(g.records), g.deal)
	}
	for i, r := range g.records {
		if r.Deal != i+1 || !g.seat(r.Dealer) || !g.seat(r.Leader) || len(r.Banks) != g.n || len(r.Points) != g.n ||
			(r.Counts != nil) != (ContractOf(r.Deal) == Max) || r.Counts != nil && len(r.Counts) != g.n ||
			r.Remaining < 0 || negative(r.Banks) || negative(r.Counts) {
			return fmt.Errorf("record %d is not a row of deal %d for %d players", i+1, i+1, g.n)
		}
		for _, p := range r.Points {
			if p*Sign(r.Deal) < 0 {
				return fmt.Errorf("record %d: points %v of the wrong sign", i+1, r.Points)
			}
		}
		if i > 0 && (r.Dealer != g.records[i-1].Leader || r.Leader != g.left(r.Dealer)) {
			return fmt.Errorf("record %d: dealer %d and leader %d after leader %d", i+1, r.Dealer, r.Leader, g.records[i-1].Leader)
		}
		if i == 0 {
			if hands, _ := g.dealt(1, r.Dealer); r.Leader != g.firstLeader(1, r.Dealer, hands) {
				return fmt.Errorf("record 1: deal 1 led by seat %d", r.Leader)
			}
		}
		if r.Counts != nil && !g.maxCounts(r) {
			return fmt.Errorf("record %d: counts %v do not give points %v", i+1, r.Counts, r.Points)
		}
	}
	if err := CheckSums(g.n, g.records); err != nil {
		return err
	}
	if g.over {
		if r := g.records[Deals-1]; !sameRecord(r, g.record()) {
			return errors.New("the last record is not the last deal's")
		}
	} else if g.deal > 1 && (g.dealer != g.records[g.deal-2].Leader || g.leader != g.left(g.dealer)) {
		return fmt.Errorf("deal %d: dealer %d and leader %d", g.deal, g.dealer, g.leader)
	}
	return nil
}

// maxCounts reports whether a Max deal's counts could be (§8.3): the pack's card points, plus 10
// for each four-of-a-suit bank with four players (M-BONUS), split into the record's points.
func (g *state) maxCounts(r DealRecord) bool {
	bonus := -MaxCount(PackSet(), 0)
	for _, c := range r.Counts {
		bonus += c
	}
	if bonus < 0 || bonus%10 != 0 || g.n < 4 && bonus > 0 {
		return false
	}
	for p, pts := range MaxSplit(r.Counts) {
		if r.Points[p] != Sign(r.Deal)*pts {
			return false
		}
	}
	return true
}

// sameRecord reports whether two records are equal.
func sameRecord(a, b DealRecord) bool {
	return a.Deal == b.Deal && a.Dealer == b.Dealer && a.Leader == b.Leader && a.Remaining == b.Remaining &&
		slices.Equal(a.Banks, b.Banks) && slices.Equal(a.Points, b.Points) && slices.Equal(a.Counts, b.Counts)
}

// checkDeal checks the deal in play (or the last one, at the end) against what its pack dealt
// (§2.4): every card in hand, on the bank or in the last bank was dealt to its player, hands hold
// one card less per bank played, taken piles are whole banks, four-of-a-suit banks fit the piles,
// and the bank on the table, or the last one, fits who leads.
func (g *state) checkDeal() error {
	size := HandSize(g.contract(), g.n)
	dealt, aside := g.dealt(g.deal, g.dealer)
	if g.stock != 0 || g.aside != aside {
		return errors.New("the cards set aside or undealt are not the deal's")
	}
	if g.leader != g.firstLeader(g.deal, g.dealer, dealt) {
		return fmt.Errorf("deal %d led by seat %d", g.deal, g.leader)
	}
	if g.played >= size && !g.over || g.over && g.played != size {
		return fmt.Errorf("%d banks played of %d", g.played, size)
	}
	if !g.over && g.contract().EndsEarly() && g.allScoringTaken() {
		return errors.New("the deal goes on with every scoring card taken")
	}
	for _, pl := range slices.Concat(g.bank.Plays, g.last.Plays) {
		if !dealt[pl.Seat].Has(pl.Card) {
			return fmt.Errorf("seat %d plays %v, which it was not dealt", pl.Seat, pl.Card)
		}
	}
	for p := range g.n {
		want := size - g.played
		for _, pl := range g.bank.Plays {
			if pl.Seat == games.Seat(p) {
				want--
			}
		}
		if !g.hands[p].Minus(dealt[p]).Empty() {
			return fmt.Errorf("seat %d holds %v, which it was not dealt", p, g.hands[p].Minus(dealt[p]))
		}
		if g.hands[p].Len() != want || g.taken[p].Len() != g.n*g.banks[p] {
			return fmt.Errorf("seat %d holds %d cards and %d banks", p, g.hands[p].Len(), g.banks[p])
		}
		if g.fours[p] > fourSuitBanks(g.taken[p]) || g.n < 4 && g.fours[p] > 0 {
			return fmt.Errorf("seat %d: %d four-of-a-suit banks in %v", p, g.fours[p], g.taken[p])
		}
	}
	switch {
	case !g.leading() && len(g.last.Plays) > 0, g.over && !g.leading():
		return errors.New("a bank on the table beside the last one")
	case g.leading() && (len(g.last.Plays) > 0) != (g.played > 0):
		return fmt.Errorf("no last bank after %d banks", g.played)
	case !g.leading() && g.played == 0 && g.bank.Leader != g.leader,
		len(g.last.Plays) > 0 && g.played == 1 && g.last.Leader != g.leader:
		return errors.New("the deal's first bank not led by its first leader")
	case !g.leading() && g.played > 0 && g.banks[g.bank.Leader] == 0,
		len(g.last.Plays) > 0 && g.played > 1 && g.banks[g.last.Leader] == 0:
		return errors.New("a bank led by a seat that took none")
	case len(g.last.Plays) > 0 && !g.last.Cards().Minus(g.taken[g.last.Holder()]).Empty():
		return errors.New("the last bank is not with its taker")
	case g.n == 4 && len(g.last.Plays) > 0 && FourOfASuit(g.last.Cards()) && g.fours[g.last.Holder()] == 0:
		return errors.New("a four-of-a-suit bank not counted")
	}
	return nil
}

// fourSuitBanks is the most four-of-a-suit banks a pile of taken cards can hold (M-BONUS).
func fourSuitBanks(pile cards.Set) int {
	k := 0
	for _, s := range cards.Suits {
		k += pile.Suit(s).Len() / 4
	}
	return k
}

// suitLetters writes suits as letters, "" for NoSuit.
func suitLetters(ss []cards.Suit) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		if s <= cards.Spades {
			out[i] = s.Letter()
		}
	}
	return out
}

// trumps reads what suitLetters wrote for each list; Validate and check judge the shape.
func (w wireTrumps) trumps() (Trumps, error) {
	own, err := parseLetters(w.Own)
	if err != nil {
		return Trumps{}, err
	}
	shared, err := parseLetters(w.Shared)
	if err != nil {
		return Trumps{}, err
	}
	return Trumps{Variant: w.Variant, Own: own, Shared: shared}, nil
}

// parseLetters reads suit letters, "" as NoSuit.
func parseLetters(ls []string) ([]cards.Suit, error) {
	if ls == nil {
		return nil, nil
	}
	out := make([]cards.Suit, len(ls))
	for i, l := range ls {
		out[i] = cards.NoSuit
		if l == "" {
			continue
		}
		s := strings.Index("CDHS", l)
		if s < 0 || len(l) != 1 {
			return nil, fmt.Errorf("%w: suit %q", ErrTrumps, l)
		}
		out[i] = cards.Suit(s)
	}
	return out, nil
}

// wireBankOf is the stored form of b, nil for no bank.
func wireBankOf(b Bank) *wireBank {
	if len(b.Plays) == 0 {
		return nil
	}
	w := &wireBank{Leader: b.Leader, Cards: make([]cards.Card, len(b.Plays))}
	for i, p := range b.Plays {
		w.Cards[i] = p.Card
	}
	return w
}

// formatRecord writes a record compactly, "deal dealer leader remaining banks points [counts]"
// with comma-separated lists ("5 0 1 0 3,2,4 -5,0,-35"), which keeps the stored state small and
// fast to read.
func formatRecord(r DealRecord) string {
	b := make([]byte, 0, 48)
	for _, n := range []int{r.Deal, int(r.Dealer), int(r.Leader), r.Remaining} {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ' ')
	}
	for i, list := range [][]int{r.Banks, r.Points, r.Counts} {
		if list == nil {
			break
		}
		if i > 0 {
			b = append(b, ' ')
		}
		for j, n := range list {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
	}
	return string(b)
}

// parseRecord reads what formatRecord writes; the lists' lengths are checkRecords' to judge.
func parseRecord(s string) (DealRecord, error) {
	f := strings.Split(s, " ")
	if len(f) != 6 && len(f) != 7 {
		return DealRecord{}, fmt.Errorf("%q has %d fields", s, len(f))
	}
	var head [4]int
	for i := range head {
		n, err := strconv.Atoi(f[i])
		if err != nil || n < -128 || n > 127 {
			return DealRecord{}, fmt.Errorf("%q: bad number %q", s, f[i])
		}
		head[i] = n
	}
	var lists [3][]int
	for i, field := range f[4:] {
		for _, p := range strings.Split(field, ",") {
			n, err := strconv.Atoi(p)
			if err != nil || n < -1000 || n > 1000 {
				return DealRecord{}, fmt.Errorf("%q: bad number %q", s, p)
			}
			lists[i] = append(lists[i], n)
		}
	}
	return DealRecord{Deal: head[0], Dealer: games.Seat(head[1]), Leader: games.Seat(head[2]), Remaining: head[3],
		Banks: lists[0], Points: lists[1], Counts: lists[2]}, nil
}
