/**
 * "Did you mean …?" for a mistyped key: the candidate nearest to the input
 * by edit distance, ignoring case, when it is near enough to be the likely
 * intent (one edit per four characters, at least one). Used by the query
 * parameter checks and the 404 hint.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = input.toLowerCase();
  const allowed = Math.max(1, Math.floor(wanted.length / 4));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/**
 * Edit distance counting an insertion, a deletion, a substitution or a swap
 * of two neighbouring letters as one edit (the usual typo: `titel`).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      row.push(distance);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
