import assert from 'node:assert/strict';
import { inTurn } from '../bench/rounds.js';

describe('bench rounds: the order of each round', () => {
  it('starts each round one later, so every server goes first as often', () => {
    const servers = ['service', 'before', 'Parse'];
    assert.deepEqual(
      [1, 2, 3, 4].map((round) => inTurn(servers, round)),
      [
        ['service', 'before', 'Parse'],
        ['before', 'Parse', 'service'],
        ['Parse', 'service', 'before'],
        ['service', 'before', 'Parse'],
      ],
    );
    assert.deepEqual(servers, ['service', 'before', 'Parse'], 'the list given is left as it was');
  });

  it('takes an empty list', () => {
    assert.deepEqual(inTurn([], 2), []);
  });
});
