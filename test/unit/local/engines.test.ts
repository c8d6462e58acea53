// The local runtime says what to install when Java is missing, instead of failing obscurely.
import { afterEach, describe, expect, it } from 'vitest';
import { checkJava } from '../../../packages/local/src/engines.js';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe('checkJava', () => {
  it('names Java 17 and how to install it when java is not on the PATH', () => {
    process.env.PATH = '/nonexistent';
    expect(() => checkJava()).toThrow(/Java 17 or newer.*apt-get install -y openjdk-17-jdk-headless/);
  });

  it('passes on this machine, which has Java 17+', () => {
    expect(() => checkJava()).not.toThrow();
  });
});
