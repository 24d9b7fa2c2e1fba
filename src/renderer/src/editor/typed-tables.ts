/**
 * A GFM table typed line by line becomes a table, as it would in a Markdown text box: each Enter
 * makes a new paragraph, so `| id | name |`, `| --- | --- |`, `| 1 | a |` were three paragraphs
 * saved as escaped text (`\| id | name |`). Once the caret has left them, a header row, its
 * delimiter row and at least one row of the same width become a table; a row typed right below a
 * table of that width joins it. Marks typed in a cell (bold, code) stay.
 */
import { Fragment, type Node as ProseNode, type Schema } from '@milkdown/kit/prose/model';
import { Plugin, PluginKey, type Transaction } from '@milkdown/kit/prose/state';
import { Transform } from '@milkdown/kit/prose/transform';

interface Cell {
  from: number;
  to: number;
}

/** The cells of a paragraph written as a table row (`| a | b |`), as offsets in its text. */
export function rowCells(text: string): Cell[] | null {
  if (!/^\|.*\|$/.test(text.trim()) || text.trim().length < 2) return null;
  const start = text.indexOf('|');
  const end = text.lastIndexOf('|');
  const cells: Cell[] = [];
  let from = start + 1;
  for (let i = from; i <= end; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] !== '|') continue;
    let a = from;
    let b = i;
    while (a < b && /\s/.test(text[a] ?? '')) a++;
    while (b > a && /\s/.test(text[b - 1] ?? '')) b--;
    cells.push({ from: a, to: b });
    from = i + 1;
  }
  return cells.length > 0 ? cells : null;
}

type Alignment = 'left' | 'right' | 'center' | null;

/** The alignments of a delimiter row (`| --- | :-: |`), or null when it is not one. */
export function delimiterRow(text: string): Alignment[] | null {
  const cells = rowCells(text);
  if (!cells) return null;
  const out: Alignment[] = [];
  for (const { from, to } of cells) {
    const cell = text.slice(from, to);
    const match = /^(:?)-+(:?)$/.exec(cell);
    if (!match) return null;
    out.push(match[1] && match[2] ? 'center' : match[1] ? 'left' : match[2] ? 'right' : null);
  }
  return out;
}

/** Only a paragraph of plain inline content (no hard break) can be a typed row. */
function rowText(node: ProseNode | null | undefined): string | null {
  if (node?.type.name !== 'paragraph') return null;
  let plain = true;
  node.forEach((child) => {
    if (!child.isText) plain = false;
  });
  return plain ? node.textContent : null;
}

function rowNode(
  schema: Schema,
  paragraph: ProseNode,
  cells: Cell[],
  align: Alignment[],
  header: boolean,
): ProseNode {
  const cellType = schema.nodes[header ? 'table_header' : 'table_cell'];
  const rowType = schema.nodes[header ? 'table_header_row' : 'table_row'];
  if (!cellType || !rowType) throw new Error('The table nodes are missing from the schema.');
  const paragraphType = paragraph.type;
  return rowType.create(
    null,
    align.map((alignment, i) => {
      const cell = cells[i];
      const content = cell
        ? withoutPipeEscapes(paragraph.content.cut(cell.from, cell.to))
        : undefined;
      return cellType.create({ alignment }, paragraphType.create(null, content));
    }),
  );
}

/**
 * A typed `\|` is a pipe in its cell, as GFM reads it: kept as typed, the cell showed `a\|b` and
 * was saved `a\\\|b` (a payload such as `id\|whoami` would reach triage altered).
 */
function withoutPipeEscapes(content: Fragment): Fragment {
  const nodes: ProseNode[] = [];
  content.forEach((node) => {
    const text = node.isText ? (node.text ?? '') : '';
    nodes.push(
      text.includes('\\|') ? node.type.schema.text(text.replaceAll('\\|', '|'), node.marks) : node,
    );
  });
  return Fragment.from(nodes);
}

interface Found {
  from: number;
  to: number;
  /** The table to add rows to, or null for a new table from a header and delimiter row. */
  table: ProseNode | null;
  rows: ProseNode[];
}

/**
 * The run of top-level blocks around `near` (where the caret was) that should become (part of) a
 * table: only what was just typed is read as a table, never a document as it was loaded.
 */
function findTypedTable(
  doc: ProseNode,
  schema: Schema,
  near: number | null,
  selection: { from: number; to: number } | null,
): Found | null {
  const blocks: { node: ProseNode; pos: number }[] = [];
  doc.forEach((node, pos) => blocks.push({ node, pos }));
  const caretIn = (pos: number, node: ProseNode): boolean =>
    !!selection && selection.to >= pos && selection.from <= pos + node.nodeSize;
  for (let i = 0; i < blocks.length; i++) {
    const first = blocks[i];
    if (!first) continue;
    let table: ProseNode | null = null;
    let align: Alignment[] | null = null;
    let next = i + 1;
    const rows: ProseNode[] = [];
    if (first.node.type.name === 'table') {
      table = first.node;
      align = [];
      table.firstChild?.forEach((cell) => align?.push(cell.attrs.alignment as Alignment));
    } else {
      const headerText = rowText(first.node);
      const second = blocks[i + 1];
      const headerCells = headerText === null ? null : rowCells(headerText);
      const delimiterText = rowText(second?.node);
      align = delimiterText === null ? null : delimiterRow(delimiterText);
      if (!headerCells || !align || !second || headerCells.length !== align.length) continue;
      if (caretIn(first.pos, first.node) || caretIn(second.pos, second.node)) continue;
      rows.push(rowNode(schema, first.node, headerCells, align, true));
      next = i + 2;
    }
    const width = align.length;
    let end = blocks[next - 1]?.pos ?? 0;
    end += blocks[next - 1]?.node.nodeSize ?? 0;
    let added = 0;
    for (let j = next; j < blocks.length; j++) {
      const block = blocks[j];
      const text = rowText(block?.node);
      const cells = text === null ? null : rowCells(text);
      if (!block || !cells || cells.length !== width || caretIn(block.pos, block.node)) break;
      rows.push(rowNode(schema, block.node, cells, align, false));
      end = block.pos + block.node.nodeSize;
      added++;
    }
    if (added > 0 && (near === null || (near >= first.pos && near <= end)))
      return { from: first.pos, to: end, table, rows };
  }
  return null;
}

function tableOf(schema: Schema, found: Found): ProseNode {
  const tableType = schema.nodes.table;
  if (!tableType) throw new Error('The table node is missing from the schema.');
  const rows: ProseNode[] = [];
  found.table?.forEach((row) => rows.push(row));
  rows.push(...found.rows);
  return tableType.createChecked(null, rows);
}

/**
 * The document as it is written: rows still being typed (the caret in the last one) are saved
 * as the table they make, as typed, not as escaped paragraphs.
 */
export function withTypedTables(doc: ProseNode): ProseNode {
  let out = doc;
  // Each pass makes one table; a document holds few.
  for (let i = 0; i < 100; i++) {
    const found = findTypedTable(out, out.type.schema, null, null);
    if (!found) return out;
    try {
      out = new Transform(out).replaceWith(
        found.from,
        found.to,
        tableOf(out.type.schema, found),
      ).doc;
    } catch {
      return out;
    }
  }
  return out;
}

export function typedTablesPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-typed-tables'),
    appendTransaction(transactions, old, state) {
      if (!transactions.some((tr) => tr.docChanged || tr.selectionSet)) return null;
      // A paste or a whole new document (loaded, or changed by the engine) is read as it is.
      const whole = (tr: Transaction): boolean =>
        tr.steps.some((step) => {
          const json = step.toJSON() as { from?: number; to?: number };
          return json.from === 0 && json.to === tr.before.content.size;
        });
      if (transactions.some((tr) => tr.getMeta('uiEvent') === 'paste' || whole(tr))) return null;
      let near = old.selection.head;
      for (const tr of transactions) near = tr.mapping.map(near, -1);
      const found = findTypedTable(state.doc, state.schema, near, state.selection);
      if (!found) return null;
      try {
        return state.tr.replaceWith(found.from, found.to, tableOf(state.schema, found));
      } catch {
        // Content a cell cannot hold: the paragraphs stay as they are.
        return null;
      }
    },
  });
}
