package games

// AgentViewer is implemented by a State that can build a View for agents alone, leaving out the
// texts for people (Table, Private, Prompt): a search asks for thousands of views per decision,
// and agents read only Seat, Players, ToAct, Dealer, Hand and Game.
type AgentViewer interface {
	AgentView(s Seat) View
}

// AgentView is the View an agent choosing for s needs: st.AgentView(s) where st has it, else
// st.View(s).
func AgentView(st State, s Seat) View {
	if av, ok := st.(AgentViewer); ok {
		return av.AgentView(s)
	}
	return st.View(s)
}

// RolloutRules is implemented by the Rules of a game whose own agent is too slow to play the
// thousands of simulated moves a search makes per decision (because it runs simulations of its
// own): RolloutAgent is a cheaper player of the same game for those simulations.
type RolloutRules interface {
	RolloutAgent() Agent
}

// RolloutAgentFor is the agent a search plays its simulated deals of r with: r's RolloutAgent
// where it has one, else AgentFor(r).
func RolloutAgentFor(r Rules) Agent {
	if rr, ok := r.(RolloutRules); ok {
		if a := rr.RolloutAgent(); a != nil {
			return a
		}
	}
	return AgentFor(r)
}
