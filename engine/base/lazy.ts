// A value made on its first use, then kept. The rendering, PDF, image and PostgreSQL packages are
// loaded through it where they are used, not when their module is imported: an engine that only keeps
// and verifies addresses never loads them (about 60 MB of resident memory at start).
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
