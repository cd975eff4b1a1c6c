declare module 'asciichart' {
  interface PlotConfig {
    height?: number;
    offset?: number;
    padding?: string;
    min?: number;
    max?: number;
    colors?: string[];
    format?: (x: number, i: number) => string;
  }
  const asciichart: { plot(series: number[] | number[][], config?: PlotConfig): string };
  export default asciichart;
}
