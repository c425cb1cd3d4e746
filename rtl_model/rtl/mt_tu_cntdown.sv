// mt_tu_cntdown: a W-bit count-down (the section's sec_left) kept as two halves with the borrow
// between them registered, so that no carry chain is longer than a half (the 40-bit chain in one
// piece was the minimal build's slowest path: about 48.2 MHz on the median seed).
//
// The value is V = hi_q * 2^Lo + lo_q - borrow_q * 2^Lo (mod 2^W): the low half counts down at
// once and a borrow out of it is taken from the high half one cycle later.  This is exact, not an
// approximation: if V = hi*2^Lo + lo - b*2^Lo, then V - s = (hi - b)*2^Lo + (lo - s mod 2^Lo) -
// b'*2^Lo, where b' = (lo < s) is the low half's borrow, which is what the next state below is.
// A load writes V's halves with no borrow pending.  The low half of V is lo_q itself and its high
// half is hi_q - borrow_q, so "V == k" for a small k (< 2^Lo) is "lo_q == k and hi_q ==
// borrow_q": a compare of registers, with no subtraction (hi_zero_o gives the second half of it).
module mt_tu_cntdown #(
  parameter int unsigned W  = 40,
  parameter int unsigned Lo = 20
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          ld_i,        // load val_i (else count down)
  input  logic [W-1:0]  val_i,
  input  logic          dec1_i,      // count down by 1 (else by 2)
  output logic [Lo-1:0] lo_o,        // V's low half
  output logic          hi_zero_o    // V's high half is zero
);
  localparam int unsigned Hi = W - Lo;
  logic [Lo-1:0] lo_q;
  logic [Hi-1:0] hi_q;
  logic          borrow_q;
  logic [Lo:0]   lo_sum;   // lo_q - 1 or - 2 as an addition of all ones; bit Lo: no borrow
  assign lo_sum = {1'b0, lo_q} + {1'b0, {(Lo - 1){1'b1}}, dec1_i};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lo_q <= '0;  hi_q <= '0;  borrow_q <= 1'b0;
    end else if (ld_i) begin
      lo_q <= val_i[Lo-1:0];  hi_q <= val_i[W-1:Lo];  borrow_q <= 1'b0;
    end else begin
      lo_q <= lo_sum[Lo-1:0];
      hi_q <= hi_q - Hi'(borrow_q);
      borrow_q <= !lo_sum[Lo];
    end
  end
  assign lo_o = lo_q;
  assign hi_zero_o = hi_q == Hi'(borrow_q);
endmodule
