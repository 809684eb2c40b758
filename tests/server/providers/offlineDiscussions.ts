import fc from 'fast-check';
import { turnAnswer, type TurnContext } from '../../../server/engine/turnAnswer';
import { offlineAnswer } from '../../../server/providers/llm/offline';
import { salientWords } from '../../../server/providers/llm/offlineModel/words';

// Generated discussions for the offline model's property tests: topics of several shapes, teams, a person's message.

const ACTORS = [
  'the city council',
  'our school',
  'a small bakery',
  'the hospital',
  'a mid-sized team',
  'the library',
  'our startup',
  'the football club',
  'the village',
  'a family farm',
  'the museum',
  'the regional airport',
  'Basil',
  'Lisbon',
  'the university',
  'our cooperative',
  'the bus company',
  'a local charity',
];
const VPS = [
  'raise parking fees',
  'ban cars from the old town',
  'switch to a four-day week',
  'cut food waste',
  'adopt electric buses',
  'hire more nurses',
  'open on Sundays',
  'replace paper charts with tablets',
  'build a new bike lane',
  'move its servers to the cloud',
  'introduce a loyalty scheme',
  'plant more trees along the river',
  'offer free school meals',
  'reduce its energy bills',
  'sell its old buildings',
  'require code review for every change',
  'lower ticket prices for students',
  'invest in solar panels',
  'merge with the neighbouring club',
  'stop printing monthly newsletters',
];
const PURPOSES = [
  '',
  ' to fund bike lanes',
  ' to cut costs',
  ' to attract young families',
  ' without losing customers',
  ' before the winter',
  ' to reduce traffic',
];
const THINGS = [
  'remote work',
  'office work',
  'public transport',
  'car sharing',
  'paper books',
  'e-readers',
  'night shifts',
  'open-plan offices',
  'small classes',
  'online courses',
];
const GROUPS = ['junior developers', 'older residents', 'students', 'nurses', 'small shops', 'families with children'];

export const topic = fc.oneof(
  fc
    .tuple(fc.constantFrom(...ACTORS), fc.constantFrom(...VPS), fc.constantFrom(...PURPOSES))
    .map(([a, v, p]) => `Should ${a} ${v}${p}?`),
  fc
    .tuple(fc.constantFrom(...ACTORS), fc.constantFrom(...VPS), fc.constantFrom(...PURPOSES))
    .map(([a, v, p]) => `How can ${a} ${v}${p}?`),
  fc
    .tuple(fc.constantFrom(...THINGS), fc.constantFrom(...THINGS), fc.constantFrom(...GROUPS))
    .filter(([x, y]) => x !== y)
    .map(([x, y, g]) => `${x.endsWith('s') ? 'Are' : 'Is'} ${x} better than ${y} for ${g}?`),
  fc.constantFrom(...VPS).map((v) => `What is the best way to ${v}?`),
  fc
    .tuple(fc.constantFrom(...ACTORS), fc.constantFrom(...VPS))
    .map(([a, v]) => `${a[0].toUpperCase()}${a.slice(1)} wants to ${v}. Good idea?`),
);

export const human = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('parking lots', 'the old buildings', 'the night buses', 'school meals', 'the solar panels'),
      fc.constantFrom('bring in', 'cost', 'save'),
      fc.integer({ min: 2, max: 900 }),
      fc.constantFrom('thousand euros', 'million dollars', 'hours'),
    )
    .map(([s, v, n, u]) => `${s} ${v} ${n} ${u} a year`),
  fc.constantFrom(...GROUPS).map((g) => `Has anyone asked the ${g}?`),
  fc
    .constantFrom('the noise', 'frost risk in April', 'the cost of insurance', 'staff turnover', 'the delivery vans')
    .map((x) => `What about ${x}?`),
  fc.constantFrom(
    'Consider the weekend traffic first.',
    'Look at what Porto did with its buses.',
    'Ask the neighbours before deciding.',
  ),
  fc.constantFrom(
    'Teachers already work unpaid overtime on Fridays.',
    'Most customers come in before nine.',
    'The bus company lost money last year.',
  ),
);

const NAMES = ['Ada', 'Bo', 'Cy', 'Dana', 'Elif', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jun'];
const ROLES = [
  'Urban planner',
  'Economist',
  'Data scientist',
  'Teacher',
  'Nurse',
  'Engineer',
  'Lawyer',
  'Ecologist',
  'Shop owner',
  'Historian',
];
export const team = fc
  .tuple(
    fc.shuffledSubarray(NAMES, { minLength: 3, maxLength: 3 }),
    fc.shuffledSubarray(ROLES, { minLength: 3, maxLength: 3 }),
    fc.array(fc.constantFrom('assertive', 'patient', 'analytical', 'reactive', null), { minLength: 3, maxLength: 3 }),
  )
  .map(([names, roles, ps]) =>
    names.map((name, i) => ({
      id: `id-${name}`,
      name,
      role: roles[i],
      prompt: `You speak as a ${roles[i].toLowerCase()}.`,
      personality: ps[i],
    })),
  );

const STAGES = ['brainstorming', 'analysis', 'critique', 'synthesis', 'consensus'];

/** A discussion of eight turns with a person's message before turn `humanAt`. */
export function discuss(subject: string, agents: TurnContext['agent'][], message: string, humanAt: number) {
  const history: TurnContext['history'] = [];
  const turns: Array<{ speaker: string; content: string; afterHuman: boolean; stance: string }> = [];
  for (let turn = 1; turn <= 8; turn++) {
    if (turn === humanAt) history.push({ speaker: 'Human', content: message, human: true });
    const agent = agents[(turn - 1) % agents.length];
    const context: TurnContext = {
      agent,
      others: agents.filter((a) => a !== agent),
      topic: subject,
      turn,
      round: Math.ceil(turn / 3),
      stage: STAGES[Math.floor((turn - 1) / 3)],
      history: [...history],
      maxWords: 120,
    };
    const a = turnAnswer.parse(JSON.parse(offlineAnswer({ model: 'offline', messages: [], jsonSchema: {}, context })));
    history.push({ speaker: agent.name, content: a.content, stance: a.stance, confidence: a.confidence });
    turns.push({ speaker: agent.name, content: a.content, afterHuman: turn === humanAt, stance: a.stance });
  }
  return turns;
}

/** Whether a turn refers to a message: it quotes it or shares its content words. */
export function refersTo(turn: string, message: string): boolean {
  const first = message.split(/(?<=[.?!])\s/)[0].replace(/[.?!]+$/, '');
  if (turn.includes(first) || turn.toLowerCase().includes(first.toLowerCase())) return true;
  const words = salientWords(message, 12);
  const lower = turn.toLowerCase();
  return words.filter((w) => lower.includes(w)).length >= Math.min(2, words.length);
}

/**
 * A person's message with a fact, its figure and a question put to one agent by name ('Tallinn made buses free in
 * 2013 … Tomas, would free fares overcrowd your route 12?'). `to` is the index of the agent asked.
 */
export const factAndAsk = fc.record({
  label: fc.constantFrom('', 'Data point for you all: ', 'For what it is worth: '),
  place: fc.constantFrom('Tallinn', 'Porto', 'the town of Ghent', 'Lyon', 'Basel'),
  act: fc.constantFrom(
    'made buses free in 2013 and lost fare income of',
    'cut its bus fares and spent',
    'tried this and saved',
  ),
  figure: fc.constantFrom(
    '38 million euros a year',
    '€2,000 a month',
    '40%',
    '12 hours a week',
    '900 thousand dollars',
  ),
  question: fc.constantFrom(
    'would free fares overcrowd your route 12?',
    'could your team cope with twice the demand?',
    'what would you change first?',
  ),
  where: fc.constantFrom('front', 'back'),
  to: fc.integer({ min: 0, max: 2 }),
});

export function factAndAskText(
  m: { label: string; place: string; act: string; figure: string; question: string; where: string },
  name: string,
) {
  const fact = `${m.label}${m.place[0].toUpperCase()}${m.place.slice(1)} ${m.act} ${m.figure}.`;
  const ask =
    m.where === 'front'
      ? `${name}, ${m.question}`
      : `${m.question[0].toUpperCase()}${m.question.slice(1, -1)}, ${name}?`;
  return { text: `${fact} ${ask}`, fact: fact.slice(m.label.length) };
}
