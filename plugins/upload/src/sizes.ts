/** Kilobytes with 2 decimals, as Strapi stores `size` (of a file and of each format). */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}
