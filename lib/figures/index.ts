/**
 * Figures and tables for the analysis notebooks. Not part of the CLI's import graph: playwright-core
 * and tslab are required lazily, danfojs and plotly are never imported (plotly's browser bundle is
 * read as text and inlined into the HTML pages).
 */
export { saveFigure, renderFigure, decodeDataUrl, figureBundle, figureManifest, PNG_SCALE } from './save';
export type { SavedFigure, SaveFigureOptions } from './save';
export { finalSpec, figureHtml, figureSize, figureSeed, watermarkBadge, zeroBarLabels, SIMULATED_LABEL, FIGURE_FONT_FAMILY, COLOURWAY } from './spec';
export type { FigureSpec, FigureOptions } from './spec';
export { saveTable, toTable, toCsv, toHtmlTable, csvCell, htmlCell } from './table';
export type { SavedTable, Table, TableInput, DataFrameLike } from './table';
export { closeFigureBrowser, describeChromium, resolveChromium, CHROMIUM_ARGS, withPage, type ChromiumSource } from './browser';
export { showBundle, showSvg, showHtml, showMarkdown, inNotebook } from './display';
export type { DisplayBundle } from './display';
export { outputBase, outputPath, saveToProject, SCRATCH_OUTPUTS } from './output-root';
