export { compileFilters } from './compileFilters.js';
export { compilePattern, type RecordMatcher } from './compilePattern.js';
export { InvalidPatternError, type LeafTest } from './leafConditions.js';
export { PatternNumber, PatternSyntaxError, type PatternValue, parsePatternJson } from './patternJson.js';
