// Jest runs the tests as ES modules (eddy is one), as they are: no transform. With TypeScript
// tests, use ts-jest's ESM preset instead (see the README's "Use eddy in your project").
export default { transform: {} };
