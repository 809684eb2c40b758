import type { EvalTaskItem } from '../../src/schemas/eval';

// A small multiple-choice reasoning set written for Agora (not taken from any benchmark), each with its answer:
// logic, counting, rates, ordering and everyday physics. The answer is the letter of the right choice.

export const REASONING_SET: EvalTaskItem[] = [
  {
    question: 'All bloops are razzies and all razzies are lazzies. Are all bloops lazzies?',
    choices: ['Yes', 'No', 'Only some', 'It cannot be told'],
    answer: 'A',
  },
  {
    question:
      'A bat and a ball cost 1.10 in total. The bat costs 1.00 more than the ball. How much does the ball cost?',
    choices: ['0.10', '0.05', '0.01', '1.00'],
    answer: 'B',
  },
  {
    question: 'If 5 machines make 5 widgets in 5 minutes, how long do 100 machines take to make 100 widgets?',
    choices: ['100 minutes', '20 minutes', '5 minutes', '1 minute'],
    answer: 'C',
  },
  {
    question:
      'A lily patch doubles in size every day and covers the lake on day 48. On which day did it cover half the lake?',
    choices: ['Day 24', 'Day 47', 'Day 46', 'Day 12'],
    answer: 'B',
  },
  {
    question: 'Anna is taller than Ben. Ben is taller than Chloe. Who is the shortest?',
    choices: ['Anna', 'Ben', 'Chloe', 'It cannot be told'],
    answer: 'C',
  },
  {
    question: 'Some cats are black. All black things absorb light. Which must be true?',
    choices: ['All cats absorb light', 'Some cats absorb light', 'No cat absorbs light', 'Every black thing is a cat'],
    answer: 'B',
  },
  {
    question: 'A train leaves at 14:50 and the journey takes 2 hours 25 minutes. When does it arrive?',
    choices: ['16:75', '17:15', '17:25', '16:15'],
    answer: 'B',
  },
  {
    question: 'How many times does the digit 7 appear when writing the whole numbers from 1 to 100?',
    choices: ['10', '11', '19', '20'],
    answer: 'D',
  },
  {
    question: 'A shirt costs 80 after a 20 % discount. What was its price before the discount?',
    choices: ['96', '100', '64', '104'],
    answer: 'B',
  },
  {
    question: 'If it rains, the street is wet. The street is not wet. What follows?',
    choices: ['It rained', 'It did not rain', 'The street is dry because of the sun', 'Nothing follows'],
    answer: 'B',
  },
  {
    question: 'Which weighs more: a kilogram of feathers or a kilogram of iron?',
    choices: ['The feathers', 'The iron', 'They weigh the same', 'It depends on the air'],
    answer: 'C',
  },
  {
    question: 'A clock shows 3:15. What is the angle between the hour and the minute hands?',
    choices: ['0 degrees', '7.5 degrees', '15 degrees', '30 degrees'],
    answer: 'B',
  },
  {
    question: 'In a race you overtake the person in second place. What place are you in now?',
    choices: ['First', 'Second', 'Third', 'Last'],
    answer: 'B',
  },
  {
    question:
      'A drawer holds 10 red and 10 blue socks. In the dark, how many must you take to be sure of a matching pair?',
    choices: ['2', '3', '11', '20'],
    answer: 'B',
  },
  { question: 'What is the next number: 2, 6, 12, 20, 30, …?', choices: ['40', '42', '44', '36'], answer: 'B' },
  {
    question: 'Monday is two days after the day before yesterday. What day is today?',
    choices: ['Sunday', 'Monday', 'Tuesday', 'Saturday'],
    answer: 'B',
  },
  {
    question: 'A farmer has 17 sheep; all but 9 run away. How many are left?',
    choices: ['8', '9', '17', '0'],
    answer: 'B',
  },
  {
    question: 'Ice floats on water because ice is …',
    choices: [
      'colder than water',
      'less dense than water',
      'full of air bubbles only',
      'lighter in total than the lake',
    ],
    answer: 'B',
  },
  {
    question: 'Three friends split a bill of 45 equally, then each leaves 2 as a tip. How much did each pay in all?',
    choices: ['15', '17', '16', '47'],
    answer: 'B',
  },
  {
    question: 'No reptile has fur. A gecko is a reptile. Which is true?',
    choices: ['A gecko has fur', 'A gecko has no fur', 'Some geckos have fur', 'It cannot be told'],
    answer: 'B',
  },
  {
    question: 'A car goes 60 km at 30 km/h and 60 km back at 60 km/h. What is its average speed over the trip?',
    choices: ['45 km/h', '40 km/h', '50 km/h', '35 km/h'],
    answer: 'B',
  },
  { question: 'Which number is the odd one out: 3, 5, 7, 9, 11?', choices: ['3', '7', '9', '11'], answer: 'C' },
  {
    question: 'If all Zorks are Plins and no Plin is a Grum, can a Zork be a Grum?',
    choices: ['Yes', 'No', 'Only one', 'It cannot be told'],
    answer: 'B',
  },
  {
    question:
      'A rope ladder hangs over a ship with 4 rungs above water. The tide rises 1 metre. How many rungs are above water?',
    choices: ['3', '4', '2', '5'],
    answer: 'B',
  },
];
