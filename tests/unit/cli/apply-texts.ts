/** The texts the apply tests scan: one with copies, one different text. */
export const TEXT =
  'Repairing a bicycle puncture starts with removing the wheel, levering the tyre off the rim and finding the hole ' +
  'by pumping the tube and listening for the hiss of escaping air, then roughening the rubber and applying a patch. ';
export const OTHER = 'A completely different text about sourdough bread, its starter, long fermentation, folding and a hot oven. '.repeat(3);
