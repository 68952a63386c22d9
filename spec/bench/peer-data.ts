/**
 * The content the peer comparison seeds into every server, in no server's shape: posts and
 * their authors, decided by one seeded generator so every server (and every run) holds exactly
 * the same titles, scores and relationships.
 */

export const PEER_GENRES = ['g0', 'g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7'] as const;
/** The genre every peer request filters on: about 1/8 of the posts, far more than one page. */
export const PEER_QUERIED_GENRE = 'g3';
export const PEER_PAGE_SIZE = 100;

export interface PeerAuthor {
  title: string;
  bio: string;
  followers: number;
}

export interface PeerPost {
  title: string;
  content: string;
  /** Unique over all posts, so "sorted by score" is one order on every server, ties or not. */
  score: number;
  genre: string;
  /** Index into the authors. */
  author: number;
  /** Creation time, one minute apart. */
  at: Date;
}

export interface PeerContent {
  authors: PeerAuthor[];
  posts: PeerPost[];
}

/** Deterministic (mulberry32), so every run benchmarks the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

function sentence(rand: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

function pick(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

/** `posts` posts spread over `authors` authors and the eight genres; scores are a shuffle of 0..posts-1 times 10. */
export function peerContent(posts: number, authors: number): PeerContent {
  const rand = prng(4242);
  const base = Date.UTC(2025, 0, 1);
  const scores = Array.from({ length: posts }, (_, i) => i * 10);
  for (let i = scores.length - 1; i > 0; i--) {
    const j = pick(rand, i + 1);
    [scores[i], scores[j]] = [scores[j] ?? 0, scores[i] ?? 0];
  }
  return {
    authors: Array.from({ length: authors }, (_, i) => ({
      title: `Author ${i}`,
      bio: sentence(rand, 30),
      followers: pick(rand, 10_000),
    })),
    posts: scores.map((score, i) => ({
      title: `Post ${i}: ${sentence(rand, 5)}`,
      content: `<p>${sentence(rand, 60)}</p>`,
      score,
      genre: PEER_GENRES[pick(rand, PEER_GENRES.length)] ?? 'g0',
      author: pick(rand, authors),
      at: new Date(base + i * 60_000),
    })),
  };
}
