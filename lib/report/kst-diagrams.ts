/**
 * Pictures of a domain's structure as plotly specs (plain data, no plotly import):
 *
 * - the **Hasse diagram** of the prerequisite order: one node per component, one line per cover pair
 *   [p, q] (p a direct prerequisite of q, no component in between), prerequisites drawn below;
 * - the **knowledge space** as a layered lattice: one node per knowledge state, layer = number of
 *   mastered components (∅ at the bottom, Q at the top), one line from K to K ∪ {q} for every q in the
 *   outer fringe of K — i.e. every way of learning one more component.
 *
 * Layout (pure, deterministic): layer by layer, nodes are ordered by the mean x of the nodes they are
 * connected to in the layer below (barycentre heuristic, which keeps edges short and crossings few),
 * ties in canonical / enumeration order; the nodes of a layer sit at unit spacing centred on x = 0.
 */
import { countStatesExact, coverRelation, DEFAULT_WORK_BUDGET, enumerateStates, outerFringe, workBudget, type Domain } from '../kst';
import { InputError } from '../errors';
import type { FigureSpec } from '../figures/spec';

export interface DiagramNode {
  /** Component ID (Hasse diagram) or state key `ids joined by ','` ('' for ∅) (lattice). */
  key: string;
  /** Text drawn on the node. */
  label: string;
  /** Hover text. */
  hover: string;
  layer: number;
  x: number;
  y: number;
}

export interface DiagramEdge {
  from: string;
  to: string;
  /** What the edge stands for: the component learned (lattice) or `p -> q` (Hasse diagram). */
  label: string;
}

export interface DiagramLayout {
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** Number of layers (max layer + 1). */
  layers: number;
}

/**
 * Short names for drawing: the IDs without the prefix all of them share, digits kept whole.
 * IDs with no common prefix, or one that would leave an ID empty, are kept as they are. For ['A1', 'A10']
 * the shared "A1" is cut back to "A".
 * @example
 * [...shortIds(['SL1', 'SL2', 'SL7']).values()]; // => ['1', '2', '7']
 * [...shortIds(['A1', 'A10']).values()]; // => ['1', '10']
 * [...shortIds(['x', 'y']).values()]; // => ['x', 'y']
 * [...shortIds(['SL', 'SL1']).values()]; // => ['SL', 'SL1']
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  let prefix = ids[0] ?? '';
  for (const id of ids) while (!id.startsWith(prefix)) prefix = prefix.slice(0, -1);
  prefix = prefix.replace(/[0-9]+$/, '');
  const usable = prefix !== '' && ids.every((id) => id.length > prefix.length);
  return new Map(ids.map((id) => [id, usable ? id.slice(prefix.length) : id]));
}

/** A state as text: `∅` for the empty state, else `{a,b,c}` (IDs as given, in the given order). */
export function stateLabel(state: readonly string[], names?: ReadonlyMap<string, string>): string {
  return state.length === 0 ? '∅' : `{${state.map((id) => names?.get(id) ?? id).join(',')}}`;
}

/** The key of a state in the lattice layout: canonical IDs joined by ','. */
export function stateKey(state: readonly string[]): string {
  return state.join(',');
}

/**
 * Orders each layer by the barycentre of its neighbours in the layers below and assigns coordinates.
 * `layerOf[i]` is node i's layer; `below[i]` the indices of its lower neighbours; nodes of equal
 * barycentre keep their input order.
 */
function placeLayers(count: number, layerOf: readonly number[], below: ReadonlyArray<readonly number[]>): { x: number[]; layers: number } {
  const layers = count === 0 ? 0 : Math.max(...layerOf) + 1;
  const x = new Array<number>(count).fill(0);
  for (let layer = 0; layer < layers; layer++) {
    const members: Array<{ i: number; bary: number }> = [];
    for (let i = 0; i < count; i++) {
      if (layerOf[i] !== layer) continue;
      const lower = below[i]!;
      const bary = lower.length === 0 ? 0 : lower.reduce((s, j) => s + x[j]!, 0) / lower.length;
      members.push({ i, bary });
    }
    // Layer 0 has no neighbours below: all barycentres are 0 and the input order stands.
    members.sort((a, b) => a.bary - b.bary || a.i - b.i);
    members.forEach((m, k) => {
      x[m.i] = k - (members.length - 1) / 2;
    });
  }
  return { x, layers };
}

/**
 * Layout of the Hasse diagram: layer of a component = length of the longest prerequisite chain below
 * it (0 for components without prerequisites), edges = `coverRelation(domain)`.
 * Example (slope): SL1 | SL2 SL4 | SL3 | SL5 | SL6 SL7.
 */
export function hasseLayout(domain: Domain): DiagramLayout {
  const ids = domain.ids;
  const cover = coverRelation(domain);
  const below: number[][] = ids.map(() => []);
  for (const [p, q] of cover) below[domain.index.get(q)!]!.push(domain.index.get(p)!);
  const layerOf = new Array<number>(ids.length).fill(-1);
  const layer = (i: number): number => {
    if (layerOf[i]! < 0) layerOf[i] = below[i]!.reduce((m, p) => Math.max(m, layer(p) + 1), 0);
    return layerOf[i]!;
  };
  ids.forEach((_, i) => layer(i));
  const { x, layers } = placeLayers(ids.length, layerOf, below);
  const names = shortIds(ids);
  const nodes = domain.components.map((c, i) => ({
    key: c.id,
    label: names.get(c.id)!,
    hover: `${c.id}: ${c.description}`,
    layer: layerOf[i]!,
    x: x[i]!,
    y: layerOf[i]!,
  }));
  const edges = cover.map(([p, q]) => ({ from: p, to: q, label: `${p} -> ${q}` }));
  return { nodes, edges, layers };
}

/**
 * The most states a diagram of the knowledge space draws: a state's box is as wide as its label, so
 * 256 states of 8 free tasks make a figure about 11,400 px wide (its PNG, at 2×, under Chromium's 32,767 px
 * canvas), 216 states of three 5-task chains 13,200 px, and 1,000 states 61,148 px, whose PNG came out
 * empty. Counted before anything is enumerated.
 */
export const MAX_LATTICE_STATES = 256;

/**
 * Layout of the knowledge space: nodes = `enumerateStates(domain)` with layer = |K|; an edge K → K ∪ {q}
 * for each q in the outer fringe of K (so the number of edges is the sum of the outer-fringe sizes).
 */
export function latticeLayout(domain: Domain): DiagramLayout {
  const count = countStatesExact(domain, workBudget(DEFAULT_WORK_BUDGET));
  if (count > BigInt(MAX_LATTICE_STATES)) {
    throw new InputError(
      `domain "${domain.id}": its knowledge space has ${count} states, more than the ${MAX_LATTICE_STATES} a diagram of the space draws (1,000 states made a figure 61,148 px wide whose PNG came out empty); draw a smaller domain (notebook 01: domainId)`,
      { file: domain.file, item: domain.id },
    );
  }
  const states = enumerateStates(domain);
  const names = shortIds(domain.ids);
  const position = new Map(states.map((s, i) => [stateKey(s), i]));
  const below: number[][] = states.map(() => []);
  const edges: DiagramEdge[] = [];
  const fringes = states.map((s) => outerFringe(domain, s));
  states.forEach((state, i) => {
    for (const q of fringes[i]!) {
      const next = [...state, q].sort((a, b) => domain.index.get(a)! - domain.index.get(b)!);
      const j = position.get(stateKey(next))!;
      below[j]!.push(i);
      edges.push({ from: stateKey(state), to: stateKey(next), label: q });
    }
  });
  const layerOf = states.map((s) => s.length);
  const { x, layers } = placeLayers(states.length, layerOf, below);
  const nodes = states.map((s, i) => ({
    key: stateKey(s),
    label: stateLabel(s, names),
    hover: `${stateLabel(s)}<br>outer fringe ${stateLabel(fringes[i]!)}`,
    layer: s.length,
    x: x[i]!,
    y: s.length,
  }));
  return { nodes, edges, layers };
}

// Okabe–Ito blue, vermillion ("red") and orange: distinguishable with the common colour-vision
// deficiencies, and the highlighted state also has the thickest border.
const EDGE_COLOUR = '#9aa5b1';
export const NODE_COLOUR = '#0072B2';
export const HIGHLIGHT_COLOUR = '#D55E00';
export const FRINGE_COLOUR = '#E69F00';

/** Line segments of `edges` as one scatter trace (x/y with null between segments). */
/** The number of nodes in the fullest layer (at least 1): the width a diagram is sized by. */
function widestLayer(layout: DiagramLayout): number {
  return Math.max(1, ...Array.from({ length: layout.layers }, (_, l) => layout.nodes.filter((n) => n.layer === l).length));
}

function edgeTrace(layout: DiagramLayout, edges: readonly DiagramEdge[], name: string, colour: string, width: number): Record<string, unknown> {
  const at = new Map(layout.nodes.map((n) => [n.key, n]));
  const xs: Array<number | null> = [];
  const ys: Array<number | null> = [];
  for (const e of edges) {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    xs.push(a.x, b.x, null);
    ys.push(a.y, b.y, null);
  }
  return { type: 'scatter', mode: 'lines', name, x: xs, y: ys, hoverinfo: 'skip', line: { color: colour, width } };
}

const hiddenAxis = (range: [number, number], title?: string) => ({
  showgrid: false,
  zeroline: false,
  showticklabels: title !== undefined,
  range,
  ...(title !== undefined ? { title: { text: title }, dtick: 1 } : {}),
});

/**
 * Plotly spec of the Hasse diagram (see hasseLayout): grey lines for the cover pairs, one labelled
 * marker per component with its description on hover, the y axis giving the layer.
 */
export function hasseDiagramSpec(domain: Domain, options: { title?: string } = {}): FigureSpec {
  const layout = hasseLayout(domain);
  const widest = widestLayer(layout);
  return {
    data: [
      edgeTrace(layout, layout.edges, 'direct prerequisite', EDGE_COLOUR, 2),
      {
        type: 'scatter',
        mode: 'markers+text',
        name: 'component',
        x: layout.nodes.map((n) => n.x),
        y: layout.nodes.map((n) => n.y),
        text: layout.nodes.map((n) => n.key),
        hovertext: layout.nodes.map((n) => n.hover),
        hoverinfo: 'text',
        textposition: 'middle center',
        textfont: { color: 'white', size: 12 },
        marker: { size: 44, color: NODE_COLOUR, line: { color: 'white', width: 1 } },
      },
    ],
    layout: {
      title: { text: options.title ?? `${domain.title}: prerequisite order (Hasse diagram)` },
      showlegend: false,
      xaxis: hiddenAxis([-(widest + 1) / 2, (widest + 1) / 2]),
      yaxis: hiddenAxis([-0.6, layout.layers - 0.4], 'longest prerequisite chain below'),
      width: Math.max(480, 140 * widest + 200),
      height: 110 * layout.layers + 140,
      margin: { l: 70, r: 30, t: 70, b: 40 },
    },
  };
}

/**
 * Plotly spec of the knowledge space (see latticeLayout). With `highlight` (a state), that state is
 * drawn in red and its outer-fringe edges and the states they lead to in orange: the admissible next
 * steps of a learner in that state. InputError (from outerFringe) if `highlight` is not a state.
 */
export function latticeSpec(domain: Domain, options: { title?: string; highlight?: readonly string[] } = {}): FigureSpec {
  const layout = latticeLayout(domain);
  const sorted = options.highlight
    ? [...options.highlight].sort((a, b) => (domain.index.get(a) ?? -1) - (domain.index.get(b) ?? -1))
    : undefined;
  const fringe = sorted ? outerFringe(domain, sorted) : []; // also validates the highlighted state
  const from = sorted ? stateKey(sorted) : undefined;
  const fringeEdges = layout.edges.filter((e) => e.from === from);
  const targets = new Set(fringeEdges.map((e) => e.to));
  const colour = (n: DiagramNode) => (n.key === from ? HIGHLIGHT_COLOUR : targets.has(n.key) ? FRINGE_COLOUR : NODE_COLOUR);
  const widest = widestLayer(layout);
  const longest = Math.max(...layout.nodes.map((n) => n.label.length));
  const data: Array<Record<string, unknown>> = [edgeTrace(layout, layout.edges, 'learn one component', EDGE_COLOUR, 1.5)];
  if (fringeEdges.length > 0) data.push(edgeTrace(layout, fringeEdges, 'outer fringe', FRINGE_COLOUR, 4));
  data.push({
    type: 'scatter',
    mode: 'markers',
    name: 'knowledge state',
    x: layout.nodes.map((n) => n.x),
    y: layout.nodes.map((n) => n.y),
    hovertext: layout.nodes.map((n) => n.hover),
    hoverinfo: 'text',
    marker: { size: 10, color: layout.nodes.map(colour) },
  });
  // Labels as boxed annotations (white background, border in the node's colour) so they stay legible
  // over the edges; each carries the same hover text as its node.
  const annotations = layout.nodes.map((n) => ({
    x: n.x,
    y: n.y,
    xref: 'x',
    yref: 'y',
    text: n.label,
    hovertext: n.hover,
    showarrow: false,
    bgcolor: 'white',
    bordercolor: colour(n),
    borderwidth: n.key === from ? 3.5 : colour(n) === NODE_COLOUR ? 1 : 2.5,
    borderpad: 3,
    font: { size: 11, color: 'black' },
  }));
  const title = options.title ?? `${domain.title}: knowledge space (${layout.nodes.length} states)`;
  // The caption names the fringe's components: the orange boxes are the states one step up, not the fringe itself.
  const short = shortIds(domain.ids);
  const steps = fringe.length === 0 ? 'nothing is left to learn' : 'orange lines, each adding one, up to the states in orange';
  const note = sorted ? `<br><sup>state ${stateLabel(sorted, short)} in red; its outer fringe ${stateLabel(fringe, short)} (the admissible next steps):</sup><br><sup>${steps}</sup>` : '';
  return {
    data,
    layout: {
      title: { text: `${title}${note}` },
      showlegend: false,
      annotations,
      xaxis: hiddenAxis([-(widest + 1) / 2, (widest + 1) / 2]),
      yaxis: hiddenAxis([-0.6, layout.layers - 0.4], 'components mastered'),
      width: Math.max(560, (40 + 7 * longest) * (widest + 1) + 120),
      height: 70 * layout.layers + 160,
      margin: { l: 70, r: 30, t: 70, b: 40 },
    },
  };
}
