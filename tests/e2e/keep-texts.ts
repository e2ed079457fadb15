/** The texts the keep specs scan: a bicycle repair text and a bread text, with copies and a near-duplicate made from them. */
export const BICYCLE =
  'Repairing a bicycle puncture starts with removing the wheel, levering the tyre off the rim and finding the hole ' +
  'by pumping the tube and listening for the hiss of escaping air, then roughening the rubber and applying a patch. ' +
  'Let the glue dry before pressing the patch on, and check the inside of the tyre for the thorn that caused it.';
export const BREAD =
  'Sourdough bread needs a lively starter, a long cold fermentation, gentle folding every half hour, shaping with ' +
  'surface tension, and a very hot oven with steam for the first twenty minutes so the crust can expand and colour.';
